// Public face of the support module: tickets opened for a user by another module (the assistant's hand-off) and a
// user's own tickets as they read them.
import type { AppConfig } from '../../platform/core/config';
import { ownRecord, type OwnRecords } from '../../platform/core/module/own-records';
import type { TicketCategory } from './support.model';

export { SUPPORT_TICKETS } from './support.collections';
export { TICKET_CATEGORIES, type TicketCategory } from './support.model';
export { TICKET_STATUSES, type TicketStatus } from './support.machine';

const services = (config: Readonly<AppConfig>) => (require('./support.wiring') as typeof import('./support.wiring')).supportServicesFor(config);
const views = () => require('./support.views') as typeof import('./support.views');
export type OwnerTicketView = ReturnType<typeof import('./support.views').ownerTicketView>;

/** The user's own tickets as GET /support/tickets answers them; another's reads as absent. */
export function ticketsOfOwner(config: Readonly<AppConfig>): OwnRecords<OwnerTicketView> {
  return {
    recent: async (userId, limit) => {
      const page = await services(config).tickets.mine(userId, { limit });
      const t = Date.now();
      return page.items.map((r) => views().ownerTicketView(services(config).tickets.settle(r, t)));
    },
    get: (userId, id) => ownRecord(id, async () => views().ownerTicketView(await services(config).tickets.read(id, { ownerId: userId }))),
  };
}

/** Opens a ticket for `ownerId` as if from the app (source ASSISTANT): the description carries the conversation. */
export async function openTicketFor(
  config: Readonly<AppConfig>,
  ownerId: string,
  ticket: {
    /** Names the ticket: the same id again answers the ticket opened first (a retried hand-off opens one). */
    id: string;
    category: TicketCategory;
    subject: string;
    description: string;
    link: { type: 'RIDE' | 'ORDER' | 'BOOKING' | 'PAYMENT'; id: string } | null;
    surface: 'CON' | 'DRV' | 'PAR';
  },
): Promise<OwnerTicketView> {
  const { id, ...fields } = ticket;
  // Checked as the API checks a ticket opened by its owner (lengths, the link's and surface's form).
  const body = TicketOpenSchema.parse({ ...fields, attachments: [] });
  return views().ownerTicketView(await services(config).tickets.open(ownerId, body, 'ASSISTANT', id));
}

export { TicketSchema } from './support.schemas';
import { TicketOpenSchema } from './support.schemas';
