import type { UnitKind } from '../../platform/kits/inventory/units';
import type { BookingStatus } from './bookings.machine';
import type { CancellationPolicy } from './bookings.policy';
import type { BookingVertical, PaymentMode } from './bookings.verticals';

export { BOOKINGS, BOOKING_INVENTORY } from './bookings.collections';

export { BOOKING_VERTICALS, type BookingVertical } from './bookings.verticals';

/** What is booked: a partner's resource (a room type, a lot's spaces, a listing's viewing slots, a doctor's slots…). */
export interface BookedResource {
  id: string;
  name: string;
  /** The record it belongs to (the hotel of a room type, the clinic of a doctor); null for none. */
  parentId: string | null;
  parentName: string | null;
}

export interface BookingPayment {
  mode: PaymentMode;
  /** Due before the booking is secured: the price (PREPAY), the deposit (DEPOSIT) or 0 (AT_VENUE). */
  dueVnd: number;
  paidVnd: number;
  paymentId: string | null;
}

export type SettlementStep = 'DONE' | 'NONE' | 'FAILED';
export interface BookingSettlement {
  refund: SettlementStep;
  /** The extra charge (an overstay) taken from the consumer's wallet; FAILED: owed, collected by the partner. */
  extra: SettlementStep;
  payout: SettlementStep;
}

/** `bookings/{id}`: one booking of any vertical; the vertical's own fields under `details`. */
export interface BookingRecord {
  id: string;
  vertical: BookingVertical;
  status: BookingStatus;
  consumerId: string;
  /** The partner owning the resource: its owner and staff answer, check in and complete. */
  partnerId: string;
  /** The partner's person it is with (a clinic's doctor): in a vertical assigned to staff, its staff see only their own. */
  assigneeId?: string | null;
  resource: BookedResource;
  unitKind: UnitKind;
  /** The units taken (platform/kits/inventory): nights, hours or slot ids, in the resource's zone. */
  units: string[];
  /** How many of the resource each unit takes (rooms, spaces). */
  qty: number;
  timeZone: string;
  startsAt: number;
  endsAt: number;
  priceVnd: number;
  /** What is paid through the app before it is secured (the vertical's payment mode), and what was. */
  payment: BookingPayment;
  policy: CancellationPolicy;
  /** The partner answers before it is confirmed (PENDING_PARTNER; the vertical's rule when it was made). */
  needsPartnerAnswer: boolean;
  /** While HELD: when the hold runs out (EXPIRED, the capacity given back). */
  holdUntil: number | null;
  /** While PENDING_PARTNER: when the partner's silence expires it. */
  answerBy: number | null;
  /** `feeVnd` kept by the policy out of what was paid; `refundVnd` the rest, given back. */
  cancellation: { by: string; reason: string | null; feeVnd: number; refundVnd: number } | null;
  /** REJECTED: who and why; `proposalId`: the booking at the time the partner proposed instead. */
  rejection: { by: string; reason: string; proposalId?: string; proposedStartsAt?: number } | null;
  /** Charged when it completed beyond what was booked (a parking space kept past its end): settled from the wallet. */
  extraCharge?: { reason: 'OVERSTAY'; units: number; feeVnd: number } | null;
  details: Record<string, unknown>;
  /** Once it ended: whether its refund and its partner's payout went through (FAILED: an operator's to settle; absent: not yet or none due). */
  settlement?: Partial<BookingSettlement>;
  createdAt: number;
  updatedAt: number;
}
