import type { AppConfig } from '../../platform/core/config';
import type { OwnRecords } from '../../platform/core/module/own-records';
import { bookingsOfConsumer, bookingsStartingWithin, type BookingView } from '../bookings';
import { ordersOfConsumer, type ConsumerOrderView } from '../orders';
import { paymentsOfPayer, type PayerPaymentView } from '../payments';
import { ridesOfRider, type RiderRideView } from '../rides';
import { ticketsOfOwner, type OwnerTicketView } from '../support';
import { walletOf } from '../wallet';
import { formatterFor } from '../../platform/kits/i18n';
import type { Reference } from './assistant.model';
import type { Lang } from './assistant.retrieval';

// The assistant's tools: the backend's own owner-scoped reads (each module's public face, as its API answers the
// owner), bound to the caller's id when the tools are made. No tool takes a user id: whatever a message or a model
// asks, another user's record reads as absent, exactly as GET /rides/{id} answers a stranger (404).

const RECENT = 5;
/** Bookings an answer lists at most (one indexed query on the period). */
const BOOKINGS_LISTED = 20;

const BOOKING_SCREENS: Record<string, string> = {
  HOTEL: 'HotelBookings',
  PARKING: 'ParkingBookings',
  RENTAL_VIEWING: 'RentalViewings',
  MEDICAL: 'MedicalAppointments',
  SCHOOL: 'SchoolConsultations',
  HOME_SERVICE: 'HomeServicesBookings',
};

const ref = (type: Reference['type'], id: string, label: string, tab: string, screen: string): Reference => ({
  type,
  id,
  label,
  deepLink: { tab, screen, params: { id } },
});

export interface RideFacts {
  id: string;
  status: string;
  from: string | null;
  to: string | null;
  fareVnd: number | null;
  driver: string | null;
  plate: string | null;
  etaToPickupSec: number | null;
  createdAt: string;
}
export interface OrderFacts {
  id: string;
  status: string;
  store: string | null;
  totalVnd: number | null;
  createdAt: string;
}
export interface BookingFacts {
  id: string;
  vertical: string;
  status: string;
  what: string | null;
  where: string | null;
  startsAt: string;
  endsAt: string;
}
export interface PaymentFacts {
  id: string;
  status: string;
  amountVnd: number;
  purpose: string;
  description: string | null;
  refundedVnd: number;
  refundsPending: number;
  createdAt: string;
}
export interface TicketFacts {
  id: string;
  status: string;
  subject: string;
  lastMessageAt: string;
}

export const rideFacts = (r: RiderRideView): RideFacts => ({
  id: r.id,
  status: r.status,
  from: r.pickup.address ?? null,
  to: r.dropoff.address ?? null,
  fareVnd: r.fare ?? r.quote.fare,
  driver: r.driver?.name ?? null,
  plate: r.driver?.vehicle?.plate ?? null,
  etaToPickupSec: r.etaToPickupSec ?? null,
  createdAt: r.createdAt,
});
export const orderFacts = (o: ConsumerOrderView): OrderFacts => ({
  id: o.id,
  status: o.status,
  store: o.seller.name,
  totalVnd: o.pricing.totalVnd,
  createdAt: o.createdAt,
});
export const bookingFacts = (b: BookingView): BookingFacts => ({
  id: b.id,
  vertical: b.vertical,
  status: b.status,
  what: b.resource.name,
  where: b.resource.parentName,
  startsAt: b.startsAt,
  endsAt: b.endsAt,
});
export const paymentFacts = (p: PayerPaymentView): PaymentFacts => ({
  id: p.id,
  status: p.status,
  amountVnd: p.amount,
  purpose: p.purpose,
  description: p.description || null,
  refundedVnd: p.refundedAmount,
  refundsPending: p.refunds.filter((r) => r.gateway.state === 'REQUESTED').length,
  createdAt: p.createdAt,
});
export const ticketFacts = (t: OwnerTicketView): TicketFacts => ({ id: t.id, status: t.status, subject: t.subject, lastMessageAt: t.lastMessageAt });

export const references = {
  ride: (r: RideFacts) => ref('RIDE', r.id, r.status, 'MapTab', 'RideDetail'),
  order: (o: OrderFacts) => ref('ORDER', o.id, o.status, 'MapTab', 'OrderTrack'),
  booking: (b: BookingFacts) => ref('BOOKING', b.id, b.status, 'MapTab', BOOKING_SCREENS[b.vertical] ?? 'HotelBookings'),
  payment: (p: PaymentFacts) => ref('PAYMENT', p.id, p.status, 'AccountTab', 'PaymentDetail'),
  wallet: (userId: string, balance: number, lang: Lang) => ref('WALLET', userId, formatterFor(lang).vnd(balance), 'AccountTab', 'Wallet'),
  ticket: (t: TicketFacts) => ref('TICKET', t.id, t.status, 'AccountTab', 'SupportTicket'),
};

/** One of the caller's records by id, else the latest (undefined `id`); `[]` when none is theirs. */
async function oneOrRecent<V, F>(own: OwnRecords<V>, userId: string, id: string | undefined, facts: (v: V) => F): Promise<F[]> {
  if (id !== undefined) {
    const found = await own.get(userId, id);
    return found ? [facts(found)] : [];
  }
  return (await own.recent(userId, RECENT)).map(facts);
}

/** The caller's tools (the user id is bound here and nowhere else). */
export function toolsFor(config: Readonly<AppConfig>, userId: string) {
  return {
    rides: (id?: string) => oneOrRecent(ridesOfRider(config), userId, id, rideFacts),
    orders: (id?: string) => oneOrRecent(ordersOfConsumer(config), userId, id, orderFacts),
    payments: (id?: string) => oneOrRecent(paymentsOfPayer(config), userId, id, paymentFacts),
    tickets: (id?: string) => oneOrRecent(ticketsOfOwner(config), userId, id, ticketFacts),
    /** The caller's bookings starting in [from, to) (all recent ones without a range), soonest first. */
    async bookings(range?: { from: number; to: number }, id?: string): Promise<BookingFacts[]> {
      if (id !== undefined || !range) return oneOrRecent(bookingsOfConsumer(config), userId, id, bookingFacts);
      return (await bookingsStartingWithin(config, userId, range, BOOKINGS_LISTED)).map(bookingFacts);
    },
    wallet: () => walletOf(config, userId),
  };
}
export type AssistantTools = ReturnType<typeof toolsFor>;
