import { AppError, NotFoundError } from '../../platform/core/errors/app-error';
import { percentOf, vnd } from '../../platform/kits/money/money';
import type { BookingActor, BookingStatus } from './bookings.machine';
import type { BookingRecord } from './bookings.model';
import { VERTICAL_RULES, type BookingVertical } from './bookings.verticals';

// The engine's rules outside its transactions: who sees a booking, where its capacity lives, what a vertical may ask
// for, what an overstay costs.

/** What a vertical asks for; the rest (units' kind, the partner's answer, the payment due) follows from its rules (bookings.verticals). */
export type HoldRequest = Omit<
  BookingRecord,
  'id' | 'status' | 'unitKind' | 'needsPartnerAnswer' | 'payment' | 'holdUntil' | 'answerBy' | 'cancellation' | 'rejection' | 'createdAt' | 'updatedAt'
> & {
  /** The Idempotency-Key of the consumer's request: the same key is the same booking. */
  idempotencyKey: string;
  /** The resource's capacity of each unit (rooms of the type, spaces, 1 for a slot). */
  capacityOf(unit: string): number;
};

/** A new booking as held for its payment (until `holdUntil`): what is due by its vertical's payment mode. */
export function newHold(request: HoldRequest, id: string, at: number, holdUntil: number): BookingRecord {
  const { idempotencyKey: _key, capacityOf: _capacity, ...fields } = request;
  const rules = VERTICAL_RULES[request.vertical];
  const dueVnd =
    rules.paymentMode === 'PREPAY' ? request.priceVnd : rules.paymentMode === 'DEPOSIT' ? percentOf(vnd(request.priceVnd), rules.depositBp, 'up') : 0;
  return {
    ...fields,
    id,
    status: 'HELD',
    unitKind: rules.unitKind,
    needsPartnerAnswer: rules.partnerAnswers,
    payment: { mode: rules.paymentMode, dueVnd, paidVnd: 0, paymentId: null },
    holdUntil,
    answerBy: null,
    cancellation: null,
    rejection: null,
    createdAt: at,
    updatedAt: at,
  };
}

/** Who acts on a booking: the consumer who made it, a partner (its owner or staff, checked by the vertical), an administrator. */
export interface BookingCaller {
  by: string;
  role: Exclude<BookingActor, 'SYSTEM'>;
  /** The partner the caller acts for (role PARTNER). */
  partnerId?: string;
}

export const notFound = () => new NotFoundError('No such booking').withCode('BOOKING_NOT_FOUND');
/** Defensive: the inventory lost a hold the booking still has (never by the engine's own moves); nothing is changed. */
export const holdLost = () => new AppError(409, 'The booking’s hold is no longer in the inventory: book again').withCode('BOOKING_HOLD_EXPIRED');

/** Whether the caller may see the booking (and so act on it): its consumer, its partner, any administrator. */
export function sees(caller: BookingCaller, b: BookingRecord): boolean {
  if (caller.role === 'ADMIN') return true;
  if (caller.role === 'PARTNER') return caller.partnerId !== undefined && caller.partnerId === b.partnerId;
  return caller.by === b.consumerId;
}

/** The inventory's resource: the vertical's resource id under its vertical (two verticals never share capacity). */
export const inventoryResourceOf = (b: { vertical: BookingVertical; resource: { id: string } }) =>
  `${b.vertical.toLowerCase().replaceAll('_', '-')}:${b.resource.id}`;

/** What `paid` did: secured now, secured before (a repeated notice), or too late (expired, cancelled: refund it). */
export type PaidOutcome = 'secured' | 'already' | 'too-late';
export const SECURED: readonly BookingStatus[] = ['PENDING_PARTNER', 'CONFIRMED', 'CHECKED_IN', 'IN_PROGRESS', 'COMPLETED', 'NO_SHOW'];

/** The engine's invariants on what a vertical asks for (a vertical validates the request; a breach here is a bug). */
export function checkRequest(r: HoldRequest): void {
  const whole = (n: number, min: number, max = Number.MAX_SAFE_INTEGER) => Number.isSafeInteger(n) && n >= min && n <= max;
  const breaches = {
    priceVnd: !whole(r.priceVnd, 0),
    qty: !whole(r.qty, 1),
    'policy.freeUntilHours': !whole(r.policy.freeUntilHours, 0),
    'policy.lateFeeBp': !whole(r.policy.lateFeeBp, 0, 10_000),
    'startsAt/endsAt': !(whole(r.startsAt, 0) && whole(r.endsAt, 0) && r.endsAt > r.startsAt),
  };
  const bad = Object.entries(breaches).find(([, breached]) => breached)?.[0];
  if (bad) throw new Error(`bookings: invalid hold request (${bad})`);
}

/**
 * What staying past the end costs (the vertical's `overstay` rule): each unit begun after the grace, at the booking's
 * price per unit, at most as many as were booked; null within it or for a vertical without the rule.
 */
export function overstayOf(b: Pick<BookingRecord, 'vertical' | 'endsAt' | 'priceVnd' | 'units' | 'unitKind'>, at: number): BookingRecord['extraCharge'] {
  const rule = VERTICAL_RULES[b.vertical].overstay;
  if (!rule || at <= b.endsAt + rule.graceSec * 1000) return null;
  const unitMs = b.unitKind === 'HOUR' ? 3_600_000 : 86_400_000;
  // At most as many units as were booked: an operator who completes late (or forgets) cannot bill without end.
  const units = Math.min(Math.ceil((at - b.endsAt) / unitMs), b.units.length);
  return { reason: 'OVERSTAY', units, feeVnd: units * Math.round(b.priceVnd / b.units.length) };
}
