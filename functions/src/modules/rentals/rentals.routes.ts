import { z } from 'zod';
import { IdParamsSchema } from '../../platform/core/http/ids';
import type { AppContext } from '../../platform/core/http/module';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { CalendarDateSchema } from '../../platform/kits/inventory/units.schemas';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';
import { BOOKING_LIMITS, bookingRequest, BookingSchema, proposalRoute } from '../bookings';
import { rentals } from './rentals.catalog';
import { createRentalViewings, VIEWING_RULES, VIEWING_SLOT_MINUTES, ViewingBodySchema } from './rentals.viewings';
import { createRentalDeposits, DEPOSIT_FREE_WITHDRAW_HOURS, DEPOSIT_LEASE_DAYS, DEPOSITS_PERMISSION } from './rentals.deposits';
import { DEPOSIT_STATUSES, DepositSchema } from './rentals.deposits.model';
import { DocumentIdSchema } from '../../platform/core/http/ids';
import { PageQuerySchema } from '../../platform/kits/firestore/paginate';
import { iso } from '../../platform/kits/time/time';

// The listings' catalog routes (the landlord's under /rentals/partner/listings) and viewings: a day's free slots,
// asking for one, and the landlord proposing another time (its other answers are the shared /bookings moves).

const SlotsSchema = z
  .object({
    listingId: z.string(),
    date: z.string().meta({ format: 'date' }),
    slots: z.array(z.object({ startsAt: IsoTimeSchema, free: z.boolean() })),
  })
  .meta({ id: 'RentalViewingSlots' });

const DepositPageSchema = z.object({ items: z.array(DepositSchema), nextCursor: z.string().nullable() }).meta({ id: 'RentalDepositPage' });
const DepositEventsSchema = z.array(
  z.object({ action: z.string(), from: z.string().nullable(), to: z.string(), by: z.string(), at: IsoTimeSchema, reason: z.string().nullable() }),
);
const ReasonSchema = z.object({ reason: z.string().trim().min(1).max(300).optional() }).meta({ id: 'RentalDepositReason' });
const RequiredReasonSchema = z.object({ reason: z.string().trim().min(1).max(300) }).meta({ id: 'RentalDepositRequiredReason' });
const DEPOSIT_CODES = ['RENTAL_DEPOSIT_NOT_FOUND', 'RENTAL_DEPOSIT_TRANSITION', 'RENTAL_DEPOSIT_NOT_ALLOWED'] as const;

export function rentalsRoutes(ctx: AppContext): AnyRoute[] {
  const viewings = createRentalViewings(ctx.config);
  const deposits = createRentalDeposits(ctx.config);
  const depositMove = (
    path: string,
    operationId: string,
    what: 'confirmLease' | 'withdraw' | 'decline' | 'release' | 'refund',
    summary: string,
    description: string,
    who: 'tenant' | 'landlord' | 'admin',
  ) =>
    defineRoute({
      method: 'post',
      path,
      operationId,
      tag: 'rentals',
      summary,
      description: `${description} A move its status no longer allows (a deposit released twice) is 409 RENTAL_DEPOSIT_TRANSITION; anyone but its tenant, its landlord’s people and administrators gets 404. Idempotency-Key accepted.`,
      auth: who === 'admin' ? ['ADMIN'] : who === 'landlord' ? ['PARTNER_OWNER', 'PARTNER_STAFF'] : [],
      ...(who === 'admin' ? { permission: DEPOSITS_PERMISSION } : {}),
      ...(who === 'tenant' ? { hat: 'CON' as const } : {}),
      idempotent: true,
      rateLimit: BOOKING_LIMITS.cancel,
      errors: [403, 404, 409],
      codes: [...DEPOSIT_CODES, ...(who === 'admin' ? (['RENTAL_DEPOSIT_SELF_MANAGE'] as const) : [])],
      request: { params: IdParamsSchema, body: who === 'tenant' ? ReasonSchema : RequiredReasonSchema },
      response: { description: 'The deposit after the move (its money follows at once: `settled`).', schema: DepositSchema },
      handler: ({ auth, params, body }) => deposits.act(auth!, params.id, what, body.reason ?? null),
    });
  return [
    ...rentals.routes(ctx),
    defineRoute({
      method: 'get',
      path: '/rentals/listings/:id/viewing-slots',
      operationId: 'listRentalViewingSlots',
      tag: 'rentals',
      summary: 'A listing’s viewing slots of one day, free or taken',
      rateLimit: { scope: 'rentals-slots', limit: 120, windowSec: 600, per: 'user' },
      description: `Half-hour slots within the listing’s viewing hours (its opening hours; 08:00–20:00 Vietnam time when it sets none), from now on. One party per slot; a slot is taken while a request waits for the landlord or once it is confirmed.`,
      auth: [],
      errors: [404],
      request: { params: IdParamsSchema, query: z.object({ date: CalendarDateSchema.describe('Local day, YYYY-MM-DD') }) },
      response: { description: 'The day’s slots.', schema: SlotsSchema },
      handler: ({ params, query }) => viewings.slots(params.id, query.date),
    }),
    defineRoute({
      method: 'post',
      path: '/rentals/listings/:id/viewings',
      operationId: 'requestRentalViewing',
      tag: 'rentals',
      summary: 'Ask to view a listing at a half-hour slot',
      description: `The slot is held and the landlord asked (PENDING_PARTNER, \`answerBy\` within BOOKING_ANSWER_HOURS and never past the start): they accept (POST /bookings/{id}/accept), reject with a reason, or propose another time (POST /rentals/viewings/{id}/propose), which you take with POST /bookings/{id}/agree. Within ${VIEWING_RULES.maxDaysAhead} days, on the ${VIEWING_SLOT_MINUTES}-minute grid of the viewing hours (outside them: 422 RENTAL_VIEWING_CLOSED). Free; cancel any time before it starts. A taken slot is 409 BOOKING_UNAVAILABLE. Idempotency-Key required: the same key answers the same request.`,
      ...bookingRequest(['RENTAL_VIEWING_CLOSED']),
      request: { params: IdParamsSchema, body: ViewingBodySchema },
      response: { status: 201, description: 'The viewing request, PENDING_PARTNER.', schema: BookingSchema },
      handler: ({ params, body, auth, idempotencyKey, claimed }) => viewings.book(auth!, params.id, body, idempotencyKey!, { claimed: claimed! }),
    }),
    defineRoute({
      method: 'post',
      path: '/rentals/listings/:id/deposits',
      operationId: 'payRentalDeposit',
      tag: 'rentals',
      summary: 'Pay a listing’s deposit: held in your wallet until the lease is signed',
      description: `The listing’s \`depositVnd\` is set aside in your wallet (a hold: HELD in the ledger; 409 WALLET_INSUFFICIENT_FUNDS: top up first) and the landlord told (\`rental.deposit.held\`). Then: you confirm the lease (RELEASED to the landlord, less the platform’s commission), the landlord declines (REFUNDED), you withdraw (REFUNDED within ${DEPOSIT_FREE_WITHDRAW_HOURS} h of paying, FORFEITED to the landlord after), or no lease within ${DEPOSIT_LEASE_DAYS} days (REFUNDED). A tenant who backs out without withdrawing is settled by an administrator (the landlord asks support). A listing without a deposit is 422 RENTAL_NO_DEPOSIT; the landlord’s own people 403 RENTAL_OWN_LISTING. Idempotency-Key required: the same key answers the same deposit.`,
      auth: [],
      hat: 'CON',
      idempotent: 'required',
      rateLimit: BOOKING_LIMITS.book,
      errors: [403, 404, 409, 422],
      codes: ['RENTAL_NO_DEPOSIT', 'RENTAL_OWN_LISTING', 'WALLET_INSUFFICIENT_FUNDS', 'IDEMPOTENCY_KEY_REUSED'],
      request: { params: IdParamsSchema },
      response: { status: 201, description: 'The HELD deposit.', schema: DepositSchema },
      handler: ({ auth, params, idempotencyKey }) => deposits.pay(auth!, params.id, idempotencyKey!),
    }),
    defineRoute({
      method: 'get',
      path: '/rentals/deposits',
      operationId: 'listRentalDeposits',
      tag: 'rentals',
      summary: 'My deposits, or a landlord’s (partnerId), newest first',
      rateLimit: { scope: 'rentals-deposits-list', limit: 120, windowSec: 600, per: 'user' },
      description:
        'Without partnerId: the caller’s own deposits as a tenant. With it: the landlord’s (its owner and staff; administrators with bookings.manage; anyone else 404).',
      auth: [],
      errors: [404],
      request: { query: PageQuerySchema.extend({ partnerId: DocumentIdSchema.optional(), status: z.enum(DEPOSIT_STATUSES).optional() }) },
      response: { description: 'A page of deposits.', schema: DepositPageSchema },
      handler: ({ auth, query }) => deposits.list(auth!, query),
    }),
    defineRoute({
      method: 'get',
      path: '/rentals/deposits/:id',
      operationId: 'getRentalDeposit',
      tag: 'rentals',
      summary: 'One deposit (its tenant, its landlord’s people, administrators)',
      auth: [],
      errors: [404],
      codes: ['RENTAL_DEPOSIT_NOT_FOUND'],
      request: { params: IdParamsSchema },
      response: { description: 'The deposit.', schema: DepositSchema },
      handler: ({ auth, params }) => deposits.get(auth!, params.id),
    }),
    defineRoute({
      method: 'get',
      path: '/rentals/deposits/:id/events',
      operationId: 'listRentalDepositEvents',
      tag: 'rentals',
      summary: 'A deposit’s history of moves, oldest first (its parties)',
      auth: [],
      errors: [404],
      codes: ['RENTAL_DEPOSIT_NOT_FOUND'],
      request: { params: IdParamsSchema },
      response: { description: 'Each move.', schema: DepositEventsSchema },
      handler: async ({ auth, params }) => (await deposits.history(auth!, params.id)).map((e) => ({ ...e, at: iso(e.at) })),
    }),
    depositMove(
      '/rentals/deposits/:id/confirm-lease',
      'confirmRentalLease',
      'confirmLease',
      'Tenant: the lease is signed, release the deposit to the landlord',
      'HELD → RELEASED: the hold is captured to the landlord’s owner, less the platform’s commission.',
      'tenant',
    ),
    depositMove(
      '/rentals/deposits/:id/withdraw',
      'withdrawRentalDeposit',
      'withdraw',
      'Tenant: back out (refunded within the free window, forfeited after it)',
      `HELD → REFUNDED within ${DEPOSIT_FREE_WITHDRAW_HOURS} h of paying (\`freeWithdrawUntil\`); later HELD → FORFEITED, captured to the landlord.`,
      'tenant',
    ),
    depositMove(
      '/rentals/deposits/:id/decline',
      'declineRentalDeposit',
      'decline',
      'Landlord: no lease with this tenant, refund the deposit (reason)',
      'HELD → REFUNDED: the hold goes back to the tenant’s wallet.',
      'landlord',
    ),
    depositMove(
      '/admin/rentals/deposits/:id/release',
      'adminReleaseRentalDeposit',
      'release',
      'Administrator: settle a dispute for the landlord (reason)',
      'HELD → RELEASED. Not on a deposit of your own or of a partner you belong to (403 RENTAL_DEPOSIT_SELF_MANAGE).',
      'admin',
    ),
    depositMove(
      '/admin/rentals/deposits/:id/refund',
      'adminRefundRentalDeposit',
      'refund',
      'Administrator: settle a dispute for the tenant (reason)',
      'HELD → REFUNDED. Not on a deposit of your own or of a partner you belong to (403 RENTAL_DEPOSIT_SELF_MANAGE).',
      'admin',
    ),
    proposalRoute({
      path: '/rentals/viewings/:id/propose',
      operationId: 'proposeRentalViewingTime',
      tag: 'rentals',
      summary: 'Landlord: answer a viewing request with another time',
      who: 'The landlord’s owner and staff',
      closedCode: 'RENTAL_VIEWING_CLOSED',
      run: (auth, id, body) => viewings.propose(auth, id, body),
    }),
  ];
}
