import { API_VERSION, SERVICE_NAME } from '../../version';
import { iso } from '../../platform/kits/time/time';
import { incidentDeadline } from './status.deadline';
import { COMPONENTS, type Component, type Impact, type IncidentRecord } from './status.model';
import { statusRepo } from './status.repo';
import { incidentView } from './status.views';

// The public page: each component's state from the unresolved incidents that name it (the worst impact wins), the
// incidents themselves and the last few resolved. Answered from a short per-instance cache: the page is public and
// polled; this instance's own changes drop it at once (`invalidate`), others' show within seconds.
export const COMPONENT_STATES = ['OPERATIONAL', 'DEGRADED', 'PARTIAL_OUTAGE', 'MAJOR_OUTAGE'] as const;
export type ComponentState = (typeof COMPONENT_STATES)[number];
const STATE_OF: Record<Impact, ComponentState> = { MINOR: 'DEGRADED', MAJOR: 'PARTIAL_OUTAGE', OUTAGE: 'MAJOR_OUTAGE' };
const UNRESOLVED_LIMIT = 50;
const RESOLVED_LIMIT = 5;

export function componentStates(unresolved: readonly IncidentRecord[]): Array<{ name: Component; state: ComponentState }> {
  return COMPONENTS.map((name) => {
    const worst = unresolved
      .filter((i) => i.components.includes(name))
      .map((i) => COMPONENT_STATES.indexOf(STATE_OF[i.impact]))
      .reduce((a, b) => Math.max(a, b), 0);
    return { name, state: COMPONENT_STATES[worst] };
  });
}

export function createStatusPage(now: () => number = Date.now, cacheMs = 5_000) {
  let cached: { at: number; page: Promise<ReturnType<typeof build>> } | undefined;

  function build(unresolved: IncidentRecord[], resolved: IncidentRecord[], at: number) {
    const components = componentStates(unresolved);
    const worst = components.reduce((a, c) => Math.max(a, COMPONENT_STATES.indexOf(c.state)), 0);
    return {
      status: COMPONENT_STATES[worst],
      service: SERVICE_NAME,
      version: API_VERSION,
      checkedAt: iso(at),
      components,
      incidents: unresolved.map(incidentView),
      recentlyResolved: resolved.map(incidentView),
    };
  }

  async function load() {
    const at = now();
    const [stored, resolved] = await Promise.all([statusRepo.unresolved(UNRESOLVED_LIMIT), statusRepo.resolved(RESOLVED_LIMIT)]);
    const settled = stored.map((i) => incidentDeadline.settle(i, at).entity);
    const lapsed = settled.filter((i) => i.status === 'RESOLVED');
    return build(
      settled.filter((i) => i.status !== 'RESOLVED'),
      [...lapsed, ...resolved].sort((a, b) => (b.resolvedAt ?? 0) - (a.resolvedAt ?? 0)).slice(0, RESOLVED_LIMIT),
      at,
    );
  }

  return {
    page() {
      const t = now();
      if (!cached || t - cached.at >= cacheMs) {
        const page = load();
        cached = { at: t, page };
        page.catch(() => {
          if (cached?.page === page) cached = undefined;
        });
      }
      return cached.page;
    },
    invalidate() {
      cached = undefined;
    },
  };
}
