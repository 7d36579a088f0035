import { incidentDeadline } from './status.deadline';
import { createStatusLifecycle } from './status.lifecycle';
import { statusRepo } from './status.repo';

/** The monitoring task (at least once): waits for the window's end, then resolves the incident unless it moved meanwhile. */
export async function onIncidentMonitorEnd(payload: { incidentId: string }): Promise<void> {
  const lifecycle = createStatusLifecycle();
  await incidentDeadline.run(payload.incidentId, { load: (id) => statusRepo.get(id), expire: (id) => lifecycle.autoResolve(id) });
}
