import type { z } from 'zod';
import { ConflictError, NotFoundError } from '../../platform/core/errors/app-error';
import { transition, type TransitionRequest } from '../../platform/kits/state-machine/state-machine';
import { AUTO_RESOLVED_BY, incidentDeadline } from './status.deadline';
import { incidentMachine, type IncidentAction, type IncidentActor, type IncidentStatus } from './status.machine';
import { DEFAULT_MONITOR_MINUTES, withUpdate, type IncidentRecord } from './status.model';
import { statusRepo } from './status.repo';
import type { IncidentMoveSchema, IncidentOpenSchema } from './status.schemas';
import { incidentView } from './status.views';

const notFound = () => new NotFoundError('No such incident');
const STAFF: readonly IncidentActor[] = ['STAFF'];

// The moves of an incident, each through the machine in a transaction that first resolves it when its monitoring
// window has passed (a late or lost task never leaves it MONITORING). Every move carries a message for the page.
export function createStatusLifecycle(now: () => number = Date.now) {
  const request = (action: IncidentAction, by: string, at: number): TransitionRequest<IncidentRecord, IncidentStatus, IncidentAction, IncidentActor> => ({
    action,
    by,
    rolesOf: () => STAFF,
    apply: (r, to) => ({ ...r, status: to, updatedAt: at }),
    now: at,
    missing: notFound,
    deadline: incidentDeadline.expiry(),
  });

  return {
    async open(adminId: string, body: z.output<typeof IncidentOpenSchema>) {
      const t = now();
      const record: IncidentRecord = {
        id: statusRepo.newId(),
        title: body.title,
        impact: body.impact,
        components: [...new Set(body.components)],
        status: 'OPEN',
        updates: [{ at: t, status: 'OPEN', message: body.message, by: adminId }],
        monitorUntil: null,
        createdAt: t,
        updatedAt: t,
        resolvedAt: null,
      };
      await statusRepo.create(record);
      return incidentView(record);
    },

    async get(id: string) {
      const found = await statusRepo.get(id);
      if (!found) throw notFound();
      return incidentView(incidentDeadline.settle(found, now()).entity);
    },

    async move(adminId: string, id: string, action: Exclude<IncidentAction, 'autoResolve'>, body: z.output<typeof IncidentMoveSchema>) {
      const t = now();
      const base = request(action, adminId, t);
      const monitorUntil = action === 'monitor' ? t + (body.monitorMinutes ?? DEFAULT_MONITOR_MINUTES) * 60_000 : null;
      const moved = await transition(incidentMachine, statusRepo.store(id), {
        ...base,
        reason: body.message,
        apply: (r, to) => ({
          ...r,
          status: to,
          impact: body.impact ?? r.impact,
          monitorUntil,
          resolvedAt: to === 'RESOLVED' ? t : null,
          updatedAt: t,
          updates: withUpdate(r, { at: t, status: to, message: body.message, by: adminId }),
        }),
      });
      return incidentView(moved.after);
    },

    /** The monitoring task's move: tolerant (an incident reopened or resolved meanwhile stays as it is), never early. */
    async autoResolve(id: string) {
      const t = now();
      return transition(incidentMachine, statusRepo.store(id), {
        ...request('autoResolve', AUTO_RESOLVED_BY, t),
        rolesOf: () => ['SYSTEM'],
        guard: (r) => {
          if (incidentDeadline.dueAt(r) !== null && !incidentDeadline.isDue(r, t)) throw new ConflictError('Still monitoring').withCode('INCIDENT_TRANSITION');
        },
        tolerant: 'refused',
      });
    },

    history: (id: string) => statusRepo.history(id),
  };
}
