import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { IdParamsSchema } from '../../platform/core/http/ids';
import { iso } from '../../platform/kits/time/time';
import { createStatusLifecycle } from './status.lifecycle';
import type { IncidentAction } from './status.machine';
import { createStatusPage } from './status.page';
import { IncidentHistorySchema, IncidentMoveSchema, IncidentOpenSchema, IncidentSchema, StatusPageSchema } from './status.schemas';

export function statusRoutes(): AnyRoute[] {
  const lifecycle = createStatusLifecycle();
  const page = createStatusPage();
  const tag = 'health' as const;
  const admin = { tag, auth: ['ADMIN'] as const, permission: 'status.manage' as const };
  const move = (action: Exclude<IncidentAction, 'autoResolve'>, summary: string, description: string) =>
    defineRoute({
      ...admin,
      method: 'post',
      path: `/status/admin/incidents/:id/${action}`,
      operationId: `admin${action.charAt(0).toUpperCase()}${action.slice(1)}Incident`,
      summary,
      description,
      errors: [404, 409],
      codes: ['INCIDENT_TRANSITION', 'PERMISSION_REQUIRED'],
      request: { params: IdParamsSchema, body: IncidentMoveSchema },
      response: { description: 'The incident after the move.', schema: IncidentSchema },
      handler: async ({ auth, params, body }) => {
        const moved = await lifecycle.move(auth!.userId, params.id, action, body);
        page.invalidate();
        return moved;
      },
    });
  return [
    defineRoute({
      method: 'get',
      path: '/status',
      operationId: 'getStatusPage',
      tag,
      summary: 'The status page: each component, open incidents, the last resolved',
      description: 'Public (no token): what apps show when something is wrong. Liveness alone is GET /health.',
      auth: 'public',
      // Per client IP: the page is cached, but each request still counts (and a poller gone wild gets 429).
      rateLimit: { scope: 'status-page', limit: 60, windowSec: 60 },
      response: { description: 'The state of each component and the incidents.', schema: StatusPageSchema },
      handler: () => page.page(),
    }),
    defineRoute({
      ...admin,
      method: 'post',
      path: '/status/admin/incidents',
      operationId: 'adminOpenIncident',
      summary: 'Open an incident (ADMIN, status.manage)',
      idempotent: true,
      codes: ['PERMISSION_REQUIRED'],
      request: { body: IncidentOpenSchema },
      response: { status: 201, description: 'The OPEN incident.', schema: IncidentSchema },
      handler: async ({ auth, body }) => {
        const opened = await lifecycle.open(auth!.userId, body);
        page.invalidate();
        return opened;
      },
    }),
    defineRoute({
      ...admin,
      method: 'get',
      path: '/status/admin/incidents/:id/history',
      operationId: 'adminGetIncidentHistory',
      summary: 'The moves of an incident, oldest first, with who made them (ADMIN, status.manage)',
      errors: [404],
      codes: ['PERMISSION_REQUIRED'],
      request: { params: IdParamsSchema },
      response: { description: 'Each move of the incident.', schema: IncidentHistorySchema },
      handler: async ({ params }) => {
        await lifecycle.get(params.id);
        const moves = await lifecycle.history(params.id);
        return { items: moves.map((m) => ({ ...m, at: iso(m.at), reason: m.reason ?? null })) };
      },
    }),
    move(
      'monitor',
      'A fix is out: monitor the incident (ADMIN, status.manage)',
      'OPEN → MONITORING; it resolves by itself after `monitorMinutes` (default 30) unless reopened.',
    ),
    move('reopen', 'The fix did not hold: reopen the incident (ADMIN, status.manage)', 'MONITORING → OPEN.'),
    move('resolve', 'Resolve the incident (ADMIN, status.manage)', 'OPEN or MONITORING → RESOLVED; a RESOLVED incident stays so (409 INCIDENT_TRANSITION).'),
  ];
}
