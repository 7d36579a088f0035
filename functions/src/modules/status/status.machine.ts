import { defineMachine } from '../../platform/kits/state-machine/state-machine';

// An incident is OPEN while it lasts, MONITORING once a fix is out (back to OPEN if it was not the fix), RESOLVED
// by an administrator or when its monitoring window ends quietly.
export const INCIDENT_STATUSES = ['OPEN', 'MONITORING', 'RESOLVED'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];
export type IncidentAction = 'monitor' | 'reopen' | 'resolve' | 'autoResolve';
export type IncidentActor = 'STAFF' | 'SYSTEM';

export const incidentMachine = defineMachine<IncidentStatus, IncidentAction, IncidentActor>({
  entity: 'incident',
  states: INCIDENT_STATUSES,
  moves: {
    monitor: { from: 'OPEN', to: 'MONITORING', by: 'STAFF' },
    reopen: { from: 'MONITORING', to: 'OPEN', by: 'STAFF' },
    resolve: { from: ['OPEN', 'MONITORING'], to: 'RESOLVED', by: 'STAFF' },
    autoResolve: { from: 'MONITORING', to: 'RESOLVED', by: 'SYSTEM' },
  },
  codes: { transition: 'INCIDENT_TRANSITION', actor: 'INCIDENT_NOT_ALLOWED' },
});
