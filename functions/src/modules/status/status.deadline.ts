import { defineDeadline } from '../../platform/kits/deadlines/deadlines';
import { INCIDENT_MONITOR_QUEUE } from './status.collections';
import { incidentMachine, type IncidentAction, type IncidentStatus } from './status.machine';
import { withUpdate, type IncidentRecord } from './status.model';

export const AUTO_RESOLVED_BY = 'system:status-monitor';

// A MONITORING incident nobody reopens resolves at `monitorUntil`: its task at that time, or the lazy check of a read.
export const incidentDeadline = defineDeadline<IncidentRecord, IncidentStatus, IncidentAction, 'incidentId'>({
  queue: INCIDENT_MONITOR_QUEUE,
  idField: 'incidentId',
  taskId: (id, phase) => `monitor-${id}-${phase ?? 'end'}`,
  dueAt: (r) => (r.status === 'MONITORING' ? r.monitorUntil : null),
  expiry: {
    machine: incidentMachine,
    action: 'autoResolve',
    by: AUTO_RESOLVED_BY,
    apply: (r, to, at) => ({
      ...r,
      updatedAt: at,
      resolvedAt: at,
      monitorUntil: null,
      updates: withUpdate(r, { at, status: to, message: 'Resolved: no recurrence while monitoring.', by: AUTO_RESOLVED_BY }),
    }),
  },
  entity: 'incident',
});
