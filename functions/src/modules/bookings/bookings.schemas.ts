import { z } from 'zod';
import { DocumentIdSchema } from '../../platform/core/http/ids';
import { PageQuerySchema } from '../../platform/kits/firestore/paginate';
import { UNIT_KINDS } from '../../platform/kits/inventory/units';
import { iso } from '../../platform/kits/time/time';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';
import { BOOKING_STATUSES } from './bookings.machine';
import type { BookingRecord } from './bookings.model';
import { BOOKING_VERTICALS } from './bookings.verticals';

// The one shape of a booking every vertical answers, its lists' queries and the bodies of its shared moves.

const Vnd = z.number().int().describe('VND');
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));
const Step = z.enum(['DONE', 'NONE', 'FAILED']).nullable();

export const BookingSchema = z
  .object({
    id: z.string(),
    vertical: z.enum(BOOKING_VERTICALS),
    status: z.enum(BOOKING_STATUSES),
    consumerId: z.string(),
    partnerId: z.string(),
    assigneeId: z.string().nullable().describe('Who of the partner’s people serves it (a doctor, a technician); null to its consumer'),
    resource: z
      .object({ id: z.string(), name: z.string(), parentId: z.string().nullable(), parentName: z.string().nullable() })
      .describe('What is booked (a room type, a doctor, a viewing…) and the record it belongs to (the hotel, the clinic…)'),
    unitKind: z.enum(UNIT_KINDS),
    units: z.array(z.string()).describe('The nights (YYYY-MM-DD), hours (YYYY-MM-DDTHH) or slots taken, in the resource’s time zone'),
    qty: z.number().int().describe('How many of the resource each unit takes (rooms, spaces)'),
    timeZone: z.string(),
    startsAt: IsoTimeSchema,
    endsAt: IsoTimeSchema,
    priceVnd: Vnd.describe('The whole price'),
    payment: z.object({
      mode: z.enum(['PREPAY', 'DEPOSIT', 'AT_VENUE']).describe('PREPAY: the price through the app; DEPOSIT: a share of it; AT_VENUE: nothing through the app'),
      dueVnd: Vnd.describe('What secures the booking'),
      paidVnd: Vnd,
      paymentId: z.string().nullable(),
    }),
    policy: z.object({
      freeUntilHours: z.number().int().describe('Free cancellation until this many hours before the start'),
      lateFeeBp: z.number().int().describe('Then this share of the price, in basis points, kept out of what was paid'),
    }),
    holdUntil: IsoTimeSchema.nullable().describe('HELD: pay before this, or the booking expires and its capacity goes back'),
    answerBy: IsoTimeSchema.nullable().describe('PENDING_PARTNER: the partner answers before this, or it expires'),
    cancellation: z
      .object({ by: z.string(), reason: z.string().nullable(), feeVnd: Vnd, refundVnd: Vnd })
      .nullable()
      .describe('CANCELLED: who, why, the fee kept and the refund'),
    rejection: z
      .object({
        by: z.string(),
        reason: z.string(),
        proposalId: z.string().optional().describe('The booking at the time the partner proposed instead (HELD for you: agree to it or let it expire)'),
        proposedAt: IsoTimeSchema.optional().describe('When that proposed time starts'),
      })
      .nullable(),
    details: z.record(z.string(), z.unknown()).describe('The vertical’s own fields (a hotel stay: guests, rooms, nights and each night’s price)'),
    settlement: z
      .object({ refund: Step, extra: Step, payout: Step })
      .describe(
        'Once it ended: the refund to its consumer, the extra charge (an overstay) from its wallet, the payout to its partner (null: not yet or none; FAILED: left to an operator, an unpaid extra charge owed at the place)',
      ),
    extraCharge: z
      .object({ reason: z.enum(['OVERSTAY']), units: z.number().int(), feeVnd: Vnd })
      .nullable()
      .describe('Charged at completion beyond what was booked (a parking space kept past its end plus 15 minutes: each hour begun)'),
    createdAt: IsoTimeSchema,
    updatedAt: IsoTimeSchema,
  })
  .meta({ id: 'Booking' });
export type BookingView = z.infer<typeof BookingSchema>;

/** Who reads a booking: its consumer sees its partner's people and administrators as STAFF, never their ids. */
export type BookingAudience = 'CONSUMER' | 'PARTNER' | 'ADMIN';
export const actorLabel = (by: string, consumerId: string, audience: BookingAudience) =>
  audience !== 'CONSUMER' || by === consumerId || by.startsWith('system:') ? by : 'STAFF';

const withoutSymptoms = ({ symptoms: _symptoms, ...rest }: Record<string, unknown>) => rest;

export function bookingView(b: BookingRecord, audience: BookingAudience): BookingView {
  const label = (by: string) => actorLabel(by, b.consumerId, audience);
  return {
    id: b.id,
    vertical: b.vertical,
    status: b.status,
    consumerId: b.consumerId,
    partnerId: b.partnerId,
    assigneeId: audience === 'CONSUMER' ? null : (b.assigneeId ?? null),
    resource: b.resource,
    unitKind: b.unitKind,
    units: b.units,
    qty: b.qty,
    timeZone: b.timeZone,
    startsAt: iso(b.startsAt),
    endsAt: iso(b.endsAt),
    priceVnd: b.priceVnd,
    payment: b.payment,
    policy: b.policy,
    holdUntil: isoOrNull(b.holdUntil),
    answerBy: isoOrNull(b.answerBy),
    cancellation: b.cancellation && { ...b.cancellation, by: label(b.cancellation.by) },
    rejection: b.rejection && {
      by: label(b.rejection.by),
      reason: b.rejection.reason,
      ...(b.rejection.proposalId ? { proposalId: b.rejection.proposalId } : {}),
      ...(b.rejection.proposedStartsAt ? { proposedAt: iso(b.rejection.proposedStartsAt) } : {}),
    },
    // Health data stays between the patient and the clinic: administrators do not read symptoms.
    details: audience === 'ADMIN' && b.vertical === 'MEDICAL' ? withoutSymptoms(b.details) : b.details,
    settlement: { refund: b.settlement?.refund ?? null, extra: b.settlement?.extra ?? null, payout: b.settlement?.payout ?? null },
    extraCharge: b.extraCharge ?? null,
    createdAt: iso(b.createdAt),
    updatedAt: iso(b.updatedAt),
  };
}

export const BookingListSchema = z.object({ items: z.array(BookingSchema), nextCursor: z.string().nullable() }).meta({ id: 'BookingPage' });

/** `status=CONFIRMED,CHECKED_IN`: one or more statuses (at most 10), comma-separated. */
const StatusFilterSchema = z
  .string()
  .transform((s) => [...new Set(s.split(',').map((x) => x.trim()))])
  .pipe(z.array(z.enum(BOOKING_STATUSES)).min(1).max(10))
  .optional()
  .describe('One or more statuses, comma-separated (e.g. `CONFIRMED,CHECKED_IN`)');

export const MyBookingsQuerySchema = PageQuerySchema.extend({ vertical: z.enum(BOOKING_VERTICALS).optional(), status: StatusFilterSchema });

export const PartnerBookingsQuerySchema = PageQuerySchema.extend({
  partnerId: DocumentIdSchema.describe('The partner whose bookings (its owner and staff only; another partner’s: 404)'),
  resourceId: z.string().min(1).max(200).optional().describe('One resource’s queue (a room type, a doctor, a listing)'),
  vertical: z.enum(BOOKING_VERTICALS).optional(),
  status: StatusFilterSchema,
}).refine((q) => !(q.resourceId && q.vertical), { message: 'filter by resourceId or vertical, not both', path: ['vertical'] });

export const AdminBookingsQuerySchema = PageQuerySchema.extend({
  vertical: z.enum(BOOKING_VERTICALS).optional(),
  status: StatusFilterSchema,
  consumerId: DocumentIdSchema.optional(),
  partnerId: DocumentIdSchema.optional(),
}).refine((q) => !(q.consumerId && q.partnerId), { message: 'filter by at most one of consumerId, partnerId', path: ['consumerId'] });

export const CancelBookingBodySchema = z.object({ reason: z.string().trim().min(1).max(300).optional() }).meta({ id: 'BookingCancelBody' });
export const RejectBookingBodySchema = z.object({ reason: z.string().trim().min(1).max(300) }).meta({ id: 'BookingRejectBody' });

export const BookingPaymentBodySchema = z
  .object({
    method: z.enum(['WALLET', 'GATEWAY']).describe('WALLET: at once from the wallet; GATEWAY: a VNPay or MoMo page (`payment.paymentUrl`)'),
    provider: z.enum(['VNPAY', 'MOMO']).optional().describe('GATEWAY only (VNPAY by default)'),
  })
  .refine((b) => b.method === 'GATEWAY' || b.provider === undefined, { message: 'provider goes with GATEWAY', path: ['provider'] })
  .meta({ id: 'BookingPaymentBody' });

export const BookingPaymentSchema = z
  .object({
    paymentId: z.string(),
    status: z.string().describe('SUCCEEDED (wallet) or PENDING (gateway: open paymentUrl)'),
    amountVnd: Vnd,
    paymentUrl: z.string().nullable(),
  })
  .meta({ id: 'BookingPayment' });

export const BookedSchema = z
  .object({ booking: BookingSchema, payment: BookingPaymentSchema.nullable().describe('The payment made for it now (null when nothing is due)') })
  .meta({ id: 'BookingWithPayment' });

export const BookingEventSchema = z
  .object({ action: z.string(), from: z.string().nullable(), to: z.string(), by: z.string(), at: IsoTimeSchema, reason: z.string().nullable() })
  .meta({ id: 'BookingEvent' });
