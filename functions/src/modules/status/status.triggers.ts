import { collectionRecords, typedTrigger } from '../../platform/core/module/triggers';
import { incidentDeadline } from './status.deadline';
import type { IncidentRecord } from './status.model';

/**
 * Arms the end of an incident's monitoring window whenever it enters MONITORING (whoever wrote it): one task per
 * window (the task id names its end), so a redelivered event schedules nothing twice and a reopened then monitored
 * incident gets a task of its own.
 */
export const onIncidentWritten = typedTrigger(collectionRecords<IncidentRecord>(), async (change) => {
  const after = change.after;
  const due = after ? incidentDeadline.dueAt(after) : null;
  if (!after || due === null || change.before?.monitorUntil === after.monitorUntil) return 'nothing due';
  await incidentDeadline.arm(incidentDeadline.scheduler, after, Date.now(), String(due));
  return 'armed';
});
