import { perConfig, type AppConfig } from '../../platform/core/config';
import { holdsPermission } from '../../platform/core/auth/roles';
import { bookingsOfConsumer } from '../bookings';
import { attachableMedia } from '../media';
import { ordersOfConsumer } from '../orders';
import { paymentsOfPayer } from '../payments';
import { ridesOfRider } from '../rides';
import { accounts, localeOf } from '../users';
import type { SupportDeps } from './support.context';
import type { TicketLinkType } from './support.model';
import { createStaffDesk } from './support.staff';
import { createThread } from './support.thread';
import { createTickets } from './support.tickets';

export const SUPPORT_PERMISSION = 'support.manage';

/** The support services of a configuration, on the other modules' public faces. */
export const supportServicesFor = perConfig((config: Readonly<AppConfig>) => {
  const own: Record<TicketLinkType, (userId: string, id: string) => Promise<unknown>> = {
    RIDE: ridesOfRider(config).get,
    ORDER: ordersOfConsumer(config).get,
    BOOKING: bookingsOfConsumer(config).get,
    PAYMENT: paymentsOfPayer(config).get,
  };
  const deps: SupportDeps = {
    config,
    now: Date.now,
    ownRecord: (type, userId, id) => own[type](userId, id),
    attachable: (ownerId, id) => attachableMedia(ownerId, id),
    async isSupportStaff(userId) {
      const user = await accounts.get(userId);
      return !!user && user.status === 'ACTIVE' && !user.disabled && user.roles.includes('ADMIN') && holdsPermission(user.permissions, SUPPORT_PERMISSION);
    },
    localeOf: async (userId) => localeOf(await accounts.get(userId)),
  };
  const tickets = createTickets(deps);
  return { deps, tickets, thread: createThread(deps, tickets), desk: createStaffDesk(deps, tickets) };
});
