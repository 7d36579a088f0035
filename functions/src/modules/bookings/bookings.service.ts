import { holdsPermission } from '../../platform/core/auth/roles';
import { AppError, ConflictError, ForbiddenError, NotFoundError } from '../../platform/core/errors/app-error';
import type { Page } from '../../platform/kits/firestore/paginate';
import { vnd } from '../../platform/kits/money/money';
import { partnerRoleOf } from '../partners';
import type { PaymentOutcome } from '../payments';
import type { BookingSettings } from './bookings.config';
import { createBookingEngine, type BookingCaller, type BookingEngine, type HoldRequest } from './bookings.engine';
import type { PayInHold } from './bookings.securing';
import type { BookingStatus } from './bookings.machine';
import type { BookingRecord } from './bookings.model';
import { createBookingMoney, type PaymentCommands } from './bookings.money';
import { bookingsRepo, type BookingFilter } from './bookings.repo';
import { actorLabel, bookingView, type BookingAudience, type BookingView } from './bookings.schemas';
import { assignBooking } from './bookings.assign';
import { bookingDeadline } from './bookings.deadline';
import { VERTICAL_RULES, type BookingVertical } from './bookings.verticals';
import type { ClaimedRun } from '../../platform/core/http/route';

// The booking engine as the API serves it: who the caller is to a booking (its consumer, a member of its partner, an
// administrator with bookings.manage), the payment that secures a new booking, the lists, and the money when it ends.

export const BOOKINGS_PERMISSION = 'bookings.manage' as const;

export interface BookingViewer {
  userId: string;
  /** An administrator holding bookings.manage. */
  admin: boolean;
}

/** The answer to a booking paid from the wallet as it was asked (secured at once). */
const paidAnswer = (booking: BookingRecord): Booked => ({
  booking: bookingView(booking, 'CONSUMER'),
  payment: { paymentId: booking.payment.paymentId!, status: 'SUCCEEDED', amountVnd: booking.payment.paidVnd, paymentUrl: null },
});

export function bookingViewerOf(auth: { userId: string; roles: readonly string[]; permissions?: string[] }): BookingViewer {
  return { userId: auth.userId, admin: auth.roles.includes('ADMIN') && holdsPermission(auth.permissions, BOOKINGS_PERMISSION) };
}

/** A partner member's view of a vertical whose bookings are one staff member's (a doctor's): the owner sees all. */
const memberSees = (role: 'OWNER' | 'STAFF', viewer: BookingViewer, b: BookingRecord) =>
  role === 'OWNER' || !VERTICAL_RULES[b.vertical].staffSeeOwnOnly || b.assigneeId === viewer.userId;

/** A time a partner proposes, in its vertical's units. */
export type ProposedTime = Parameters<BookingEngine['propose']>[2];

export type PayBy = { method: 'WALLET' | 'GATEWAY'; provider?: 'VNPAY' | 'MOMO'; clientIp?: string };
export interface Booked {
  booking: BookingView;
  payment: { paymentId: string; status: string; amountVnd: number; paymentUrl: string | null } | null;
}

const notFound = () => new NotFoundError('No such booking').withCode('BOOKING_NOT_FOUND');
const ListPage = (p: { limit: number; cursor?: string }) => ({ limit: p.limit, cursor: p.cursor });

export function createBookingsService(deps: { settings: BookingSettings; payments: PaymentCommands; now?: () => number }) {
  const now = deps.now ?? Date.now;
  const engine = createBookingEngine(deps.settings, now);
  const money = createBookingMoney(deps.payments, deps.settings.commissionBp, now);

  const load = async (id: string) => (await bookingsRepo.get(id)) ?? Promise.reject(notFound());
  const memberOf = async (partnerId: string, userId: string) => (await partnerRoleOf(partnerId, userId)) !== undefined;
  const roleIn = (partnerId: string, userId: string) => partnerRoleOf(partnerId, userId);

  /** The caller as the booking's partner (a member of it) or an administrator; anyone else: 404. */
  async function asPartner(viewer: BookingViewer, b: BookingRecord): Promise<BookingCaller> {
    const role = await roleIn(b.partnerId, viewer.userId);
    if (role && memberSees(role, viewer, b)) return { by: viewer.userId, role: 'PARTNER', partnerId: b.partnerId };
    if (viewer.admin) return { by: viewer.userId, role: 'ADMIN' };
    throw notFound();
  }
  /** The caller as the booking's consumer first, then as its partner or an administrator. */
  async function asParty(viewer: BookingViewer, b: BookingRecord): Promise<BookingCaller> {
    if (b.consumerId === viewer.userId) return { by: viewer.userId, role: 'CONSUMER' };
    return asPartner(viewer, b);
  }

  const chargeOf = (b: BookingRecord, key: string) => ({
    payerId: b.consumerId,
    amount: vnd(b.payment.dueVnd),
    purpose: 'BOOKING' as const,
    ref: { type: 'BOOKING', id: b.id },
    description: `${b.resource.parentName ?? b.resource.name}: ${b.resource.name}`,
    idempotencyKey: key,
  });
  async function charge(b: BookingRecord, by: PayBy, key: string): Promise<NonNullable<Booked['payment']>> {
    const payment = await deps.payments.charge({
      ...chargeOf(b, key),
      method: by.method,
      ...(by.method === 'GATEWAY' ? { provider: by.provider ?? 'VNPAY' } : {}),
      clientIp: by.clientIp,
    });
    return { paymentId: payment.id, status: payment.status, amountVnd: payment.amount, paymentUrl: payment.paymentUrl ?? null };
  }
  const bookKey = (b: Pick<BookingRecord, 'id'>, by: PayBy) => `booking-${b.id}-${by.method}-${by.provider ?? ''}`;
  /** A wallet payment made in the hold's own transaction (the same key, so the same payment, as `charge`). */
  const walletInHold =
    (by: PayBy): PayInHold =>
    async (tx, b) => {
      const { payment, write } = await deps.payments.txCharge(tx, chargeOf(b, bookKey(b, by)));
      if (payment.status !== 'SUCCEEDED')
        throw new ConflictError('The wallet payment did not go through', { status: payment.status }).withCode('BOOKING_TRANSITION');
      return { receipt: { paymentId: payment.id, amountVnd: payment.amount }, write };
    };

  /** A payment that succeeded for a booking: secures it, or gives the money back when it came too late or twice. */
  async function secure(bookingId: string, receipt: { paymentId: string; amountVnd: number }, known?: BookingRecord): Promise<BookingRecord> {
    // What is due never changes after the hold: a booking the caller holds already is not read again.
    const current = known ?? (await load(bookingId));
    if (current.payment.dueVnd !== receipt.amountVnd) {
      await money.refundStray(bookingId, receipt);
      return current;
    }
    const { booking, outcome } = await engine.paid(bookingId, receipt, current);
    // A payment the booking never took (too late, or a second one) goes back; the one it took is settled with it.
    if (outcome !== 'secured' && booking.payment.paymentId !== receipt.paymentId) await money.refundStray(bookingId, receipt);
    return booking;
  }

  async function list(
    filter: BookingFilter,
    page: { limit: number; cursor?: string },
    caller: string,
    query: string,
    audience: BookingAudience,
    keep: (b: BookingRecord) => boolean = () => true,
  ): Promise<Page<BookingView>> {
    const found = await bookingsRepo.list(filter, { ...ListPage(page), query, caller });
    const at = now();
    return { items: found.items.filter(keep).map((b) => bookingView(bookingDeadline.settle(b, at).entity, audience)), nextCursor: found.nextCursor };
  }
  const statusKey = (s?: readonly BookingStatus[]) => (s ?? []).join(',');

  return {
    engine,

    /**
     * A vertical's new booking: held, charged to the wallet and secured in one transaction (the partner's own people
     * refused in it too: 403 BOOKING_OWN_RESOURCE); held, then secured when nothing is due (paid at the venue); a
     * gateway payment leaves it HELD until its outcome (`payment.paymentUrl`). A retry with the same key answers the
     * same booking as it stands (`payment` null). A refused wallet payment (409 WALLET_INSUFFICIENT_FUNDS) leaves the
     * booking HELD, unless it would be one hold too many (409 BOOKING_TOO_MANY_HOLDS, nothing held): pay it with
     * `POST /bookings/{id}/pay` or let it expire. `run`: the route's claim, awaited before anything is written, and its
     * `answerInCommit` (a booking paid at once answers in its own commit).
     */
    async book(request: HoldRequest, by: PayBy | null, run: ClaimedRun): Promise<Booked> {
      // The vertical's catalog reads overlapped the key's claim (claimBeside in bookingRequest): nothing is written before it.
      await run.claimed();
      const { answerInCommit } = run;
      // A partner's own people do not book its resources (money paid in would come out as the partner's earnings).
      const { booking, paidAtOnce, payRefused, answer } = await engine.hold(request, {
        pay: by?.method === 'WALLET' ? walletInHold(by) : undefined,
        check: async (tx) => {
          if ((await partnerRoleOf(request.partnerId, request.consumerId, tx)) !== undefined)
            throw new ForbiddenError('You manage this place: book it through another account').withCode('BOOKING_OWN_RESOURCE');
        },
        // Paid at once: the answer goes in the booking's commit (nothing written after it).
        answerPaid: answerInCommit ? (tx, paidBooking) => answerInCommit(tx, paidAnswer(paidBooking)) : undefined,
      });
      if (payRefused) throw payRefused;
      if (paidAtOnce) return answer ?? paidAnswer(booking);
      if (booking.status !== 'HELD') return { booking: bookingView(booking, 'CONSUMER'), payment: null };
      if (booking.payment.dueVnd === 0) return { booking: bookingView((await engine.paid(booking.id, undefined, booking)).booking, 'CONSUMER'), payment: null };
      if (!by) throw new AppError(400, 'This booking is paid ahead: choose a payment method').withCode('BOOKING_PAYMENT_REQUIRED');
      const payment = await charge(booking, by, bookKey(booking, by));
      if (payment.status !== 'SUCCEEDED') return { booking: bookingView(booking, 'CONSUMER'), payment };
      return { booking: bookingView(await secure(booking.id, { paymentId: payment.paymentId, amountVnd: payment.amountVnd }, booking), 'CONSUMER'), payment };
    },

    /** Pays a HELD booking of the caller's (another method after a refusal, a gateway page again). */
    async pay(viewer: BookingViewer, id: string, by: PayBy, key: string): Promise<Booked> {
      const current = bookingDeadline.settle(await load(id), now()).entity;
      if (current.consumerId !== viewer.userId) throw notFound();
      if (current.status !== 'HELD')
        throw new ConflictError('Only a booking waiting for its payment (HELD) is paid', { status: current.status }).withCode('BOOKING_TRANSITION');
      if (current.payment.dueVnd === 0) return { booking: bookingView((await engine.paid(id, undefined, current)).booking, 'CONSUMER'), payment: null };
      const payment = await charge(current, by, `booking-${id}-pay-${key}`);
      if (payment.status !== 'SUCCEEDED') return { booking: bookingView(current, 'CONSUMER'), payment };
      return { booking: bookingView(await secure(id, { paymentId: payment.paymentId, amountVnd: payment.amountVnd }, current), 'CONSUMER'), payment };
    },

    /** A payment's outcome (at least once): a success secures its booking; nothing else changes it (its hold runs out). */
    async paymentOutcome(outcome: PaymentOutcome): Promise<string> {
      // Wallet payments too: a `pay` request that died between its charge and securing the booking is finished here.
      if (outcome.status !== 'SUCCEEDED') return 'nothing to do';
      if (!(await bookingsRepo.get(outcome.ref.id))) return 'no such booking';
      return (await secure(outcome.ref.id, { paymentId: outcome.paymentId, amountVnd: outcome.amount })).status;
    },

    async get(viewer: BookingViewer, id: string): Promise<BookingView> {
      const caller = await asParty(viewer, await load(id));
      return bookingView(await engine.get(id, caller), caller.role);
    },
    async history(viewer: BookingViewer, id: string) {
      const b = await load(id);
      const { role } = await asParty(viewer, b);
      return (await bookingsRepo.history(id)).map((e) => ({ ...e, by: actorLabel(e.by, b.consumerId, role), from: e.from ?? null, reason: e.reason ?? null }));
    },

    mine(viewer: BookingViewer, q: { vertical?: BookingVertical; status?: BookingStatus[]; limit: number; cursor?: string }) {
      return list(
        { consumerId: viewer.userId, vertical: q.vertical, statuses: q.status, order: 'newest' },
        q,
        viewer.userId,
        `bookings:mine:${q.vertical ?? ''}:${statusKey(q.status)}`,
        'CONSUMER',
      );
    },
    /** The consumer's bookings starting within a period, soonest first (the assistant's "my bookings this week"). */
    startingWithin(viewer: BookingViewer, starts: { from: number; to: number }, limit: number) {
      return list(
        { consumerId: viewer.userId, starts, order: 'soonest' },
        { limit },
        viewer.userId,
        `bookings:mine:starting:${starts.from}:${starts.to}`,
        'CONSUMER',
      );
    },
    async partnerQueue(
      viewer: BookingViewer,
      q: { partnerId: string; resourceId?: string; vertical?: BookingVertical; status?: BookingStatus[]; limit: number; cursor?: string },
    ) {
      const role = await roleIn(q.partnerId, viewer.userId);
      const member = role !== undefined;
      if (!member && !viewer.admin) throw new NotFoundError('No such partner');
      // A staff member's queue of a vertical assigned to staff (a doctor's appointments) is their own.
      const assigneeId = role === 'STAFF' && q.vertical && VERTICAL_RULES[q.vertical].staffSeeOwnOnly ? viewer.userId : undefined;

      return list(
        { partnerId: q.partnerId, resourceId: q.resourceId, assigneeId, vertical: q.vertical, statuses: q.status, order: 'soonest' },
        q,
        viewer.userId,
        `bookings:partner:${q.partnerId}:${assigneeId ?? ''}:${q.resourceId ?? ''}:${q.vertical ?? ''}:${statusKey(q.status)}`,
        member ? 'PARTNER' : 'ADMIN',
        // Without the vertical, a staff member's page leaves out others' assigned bookings (it may come out short).
        role ? (b) => memberSees(role, viewer, b) : undefined,
      );
    },
    adminList(
      viewer: BookingViewer,
      q: { vertical?: BookingVertical; status?: BookingStatus[]; consumerId?: string; partnerId?: string; limit: number; cursor?: string },
    ) {
      return list(
        { consumerId: q.consumerId, partnerId: q.partnerId, vertical: q.vertical, statuses: q.status, order: 'newest' },
        q,
        viewer.userId,
        `bookings:admin:${q.consumerId ?? ''}:${q.partnerId ?? ''}:${q.vertical ?? ''}:${statusKey(q.status)}`,
        'ADMIN',
      );
    },

    async cancel(viewer: BookingViewer, id: string, reason: string | null): Promise<BookingView> {
      const caller = await asParty(viewer, await load(id));
      return bookingView(await engine.cancel(id, caller, reason), caller.role);
    },
    /**
     * An administrator steps in (bookings.manage): cancelled whatever its status short of an end, everything paid
     * refunded, nothing paid out. Not on a booking of their own or of a partner they belong to (403).
     */
    async adminCancel(viewer: BookingViewer, id: string, reason: string): Promise<BookingView> {
      const b = await load(id);
      if (!viewer.admin) throw notFound();
      if (b.consumerId === viewer.userId || (await memberOf(b.partnerId, viewer.userId)))
        throw new ForbiddenError('Another administrator steps in on a booking of yours').withCode('BOOKING_SELF_MANAGE');
      return bookingView(await engine.adminCancel(id, { by: viewer.userId, role: 'ADMIN' }, reason), 'ADMIN');
    },
    async answer(viewer: BookingViewer, id: string, answer: { accepted: true } | { accepted: false; reason: string }): Promise<BookingView> {
      const caller = await asPartner(viewer, await load(id));
      return bookingView(await engine.answer(id, caller, answer), caller.role);
    },
    async begin(viewer: BookingViewer, id: string, move: 'checkIn' | 'start'): Promise<BookingView> {
      const caller = await asPartner(viewer, await load(id));
      return bookingView(await engine.begin(id, caller, move), caller.role);
    },
    /** Done; `completion`: a vertical completing through its own operation with its details (a home service's photos). */
    async complete(viewer: BookingViewer, id: string, completion?: { vertical: BookingVertical; details: Record<string, unknown> }): Promise<BookingView> {
      const b = await load(id);
      if (completion && b.vertical !== completion.vertical) throw notFound();
      const caller = await asPartner(viewer, b);
      return bookingView(await engine.complete(id, caller, completion?.details), caller.role);
    },
    /** Its partner names who of its people serves it (a technician), a member of the partner (else 422). */
    async assign(viewer: BookingViewer, id: string, assignee: { userId: string; name: string | null }): Promise<BookingView> {
      const b = await load(id);
      const caller = await asPartner(viewer, b);
      if (!(await memberOf(b.partnerId, assignee.userId)))
        throw new AppError(422, 'Name one of the partner’s people', { field: 'body.userId' }).withCode('BOOKING_ASSIGNEE_NOT_MEMBER');
      return bookingView(await assignBooking(id, caller, assignee, now()), caller.role);
    },
    async noShow(viewer: BookingViewer, id: string): Promise<BookingView> {
      const caller = await asPartner(viewer, await load(id));
      return bookingView(await engine.noShow(id, caller), caller.role);
    },

    /**
     * Its partner proposes another time for a booking of `vertical` waiting for its answer (`timeOf` works out the
     * units of the time asked, in the vertical's terms): the booking REJECTED with the proposal, the proposed one HELD
     * for its consumer. Anyone but its partner's people (and administrators): 404.
     */
    async propose(viewer: BookingViewer, id: string, vertical: BookingVertical, timeOf: (b: BookingRecord) => Promise<ProposedTime>) {
      const b = await load(id);
      if (b.vertical !== vertical) throw notFound();
      const caller = await asPartner(viewer, b);
      const { rejected, proposed } = await engine.propose(id, caller, await timeOf(b));
      return { rejected: bookingView(rejected, caller.role), proposed: bookingView(proposed, caller.role) };
    },
    /** Its consumer takes the time its partner proposed (nothing to pay): CONFIRMED. */
    async agree(viewer: BookingViewer, id: string): Promise<BookingView> {
      const caller = await asParty(viewer, await load(id));
      return bookingView(await engine.agree(id, caller), caller.role);
    },

    /** An ended booking's refund and payout (idempotent). */
    settle: (b: BookingRecord) => money.settle(b),
  };
}

export type BookingsService = ReturnType<typeof createBookingsService>;
