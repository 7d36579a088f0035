import { ticketDeadline } from './support.deadline';
import { supportRepo } from './support.repo';
import { supportServicesFor } from './support.wiring';
import type { AppConfig } from '../../platform/core/config';

/** The auto-close task (at least once): waits for the reopen window's end, then closes the ticket unless it moved. */
export async function onTicketAutoClose(payload: { ticketId: string }, config: Readonly<AppConfig>): Promise<void> {
  const { tickets } = supportServicesFor(config);
  await ticketDeadline.run(payload.ticketId, { load: (id) => supportRepo.get(id), expire: (id) => tickets.autoClose(id) });
}
