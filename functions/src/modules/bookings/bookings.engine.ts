import type { Transaction } from 'firebase-admin/firestore';
import { AppError, contendedError } from '../../platform/core/errors/app-error';
import { settled } from '../../platform/core/errors/settled';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { oneAtATime } from '../../platform/kits/firestore/one-at-a-time';
import { IdempotencyKeyReusedError } from '../../platform/kits/idempotency/idempotency';
import { stableId } from '../../platform/kits/ids/stable-id';
import { transition, type Expiry } from '../../platform/kits/state-machine/state-machine';
import { iso } from '../../platform/kits/time/time';
import { bookingDeadline } from './bookings.deadline';
import { bookingInventory, resourceQueueKey } from './bookings.inventory';
import { bookingMachine, type BookingAction, type BookingStatus } from './bookings.machine';
import type { BookingRecord } from './bookings.model';
import { cancellationFee } from './bookings.policy';
import { VERTICAL_RULES, type BookingVertical } from './bookings.verticals';
import {
  checkRequest,
  holdLost,
  newHold,
  inventoryResourceOf,
  notFound,
  overstayOf,
  SECURED,
  sees,
  type BookingCaller,
  type HoldRequest,
  type PaidOutcome,
} from './bookings.rules';

export { inventoryResourceOf, overstayOf, sees, type BookingCaller, type HoldRequest, type PaidOutcome } from './bookings.rules';
import { bookingsRepo } from './bookings.repo';
import { answerByOf, isPaymentRefusal, securedAtOnce, securedBy, type PayInHold } from './bookings.securing';

// The booking engine every booking vertical runs on: a vertical works out what is booked (its resource, units,
// quantity, price, policy) and the engine holds the capacity, moves the booking through the one table
// (bookings.machine) and gives the capacity back when it ends. Every move is one transaction: the booking's move and
// its inventory change together (platform/kits/inventory), with the hold's or the answer's deadline checked first
// (bookings.deadline). A resource's transactions run one at a time in the instance.

export interface EngineSettings {
  /** How long a new booking holds its capacity for payment (the spec's 10 minutes). */
  holdMinutes: number;
  /** How long a partner has to answer a booking waiting for it. */
  answerHours: number;
  /** HELD bookings one consumer may have at once (BOOKINGS_MAX_LIVE_HOLDS). */
  maxLiveHolds: number;
}

export function createBookingEngine(settings: EngineSettings, now: () => number = Date.now) {
  const notBefore = (earliest: (b: BookingRecord) => number, at: () => number) => (b: BookingRecord) => {
    const when = earliest(b);
    if (at() < when) throw new AppError(409, 'Too early for this', { notBefore: iso(when) }).withCode('BOOKING_TOO_EARLY');
  };
  const inventoryOf = (b: BookingRecord, at: number) => ({ resourceId: inventoryResourceOf(b), units: b.units, bookingId: b.id, now: at });
  /** The deadline with the capacity given back when it expires the booking. */
  const expiry: Expiry<BookingRecord, BookingStatus, BookingAction> = {
    ...bookingDeadline.expiry(),
    alongside: async (tx, expired, before) => (await bookingInventory.txRelease(tx, inventoryOf(before, expired.updatedAt))).write(),
  };
  const busy = () => contendedError('Many bookings of this resource at this moment: retry in a few seconds');

  /** What a move does to the booking's capacity: nothing, confirm the hold, hold it longer (until `until`), give it back. */
  type InventoryChange = 'confirm' | 'release' | { holdUntil: (b: BookingRecord, at: number) => number };

  async function move(
    current: BookingRecord,
    caller: BookingCaller | 'SYSTEM',
    action: BookingAction,
    o: {
      apply?(b: BookingRecord, to: BookingStatus, at: number): BookingRecord;
      inventory?: InventoryChange;
      /** More of the move, in its transaction: reads the rest, returns the writes (run after the inventory's). */
      alongside?(tx: Transaction, previous: BookingRecord, at: number): Promise<() => void>;
      guard?(b: BookingRecord, at: number): void;
      tolerant?: 'target' | 'refused';
    } = {},
  ) {
    if (caller !== 'SYSTEM' && !sees(caller, current)) throw notFound();
    // Queued by the booking's resource (it never changes), then everything read again in the transaction.
    return oneAtATime(resourceQueueKey(inventoryResourceOf(current)), busy, async () => {
      const at = now();
      return transition(
        bookingMachine,
        bookingsRepo.store(current.id, async (tx, _next, previous) => {
          // Reads first (the move's own, then the inventory's), then the writes.
          const alsoWrite = o.alongside ? await o.alongside(tx, previous, at) : undefined;
          const change = o.inventory;
          const p = inventoryOf(previous, at);
          if (change === 'release') (await bookingInventory.txRelease(tx, p)).write();
          else if (change === 'confirm') {
            const confirmed = await bookingInventory.txConfirm(tx, p);
            if (!confirmed.held) throw holdLost();
            confirmed.write();
          } else if (change) {
            const extended = await bookingInventory.txExtend(tx, { ...p, until: change.holdUntil(previous, at) });
            if (!extended.held) throw holdLost();
            extended.write();
          }
          alsoWrite?.();
        }),
        {
          action,
          by: caller === 'SYSTEM' ? 'system:bookings' : caller.by,
          rolesOf: () => [caller === 'SYSTEM' ? 'SYSTEM' : caller.role],
          visible: (b) => caller === 'SYSTEM' || sees(caller, b),
          apply: (b, to) => (o.apply ? o.apply(b, to, at) : { ...b, status: to, updatedAt: at }),
          guard: o.guard && ((b) => o.guard!(b, at)),
          now: at,
          missing: notFound,
          deadline: expiry,
          tolerant: o.tolerant,
        },
      );
    });
  }
  const load = async (id: string) => (await bookingsRepo.get(id)) ?? Promise.reject(notFound());
  const moveById = async (id: string, caller: BookingCaller | 'SYSTEM', action: BookingAction, o: Parameters<typeof move>[3] = {}) =>
    (await move(await load(id), caller, action, o)).after;

  return {
    /**
     * Holds the capacity for a new booking (HELD until `holdMinutes` from now), or answers the booking the same key
     * made already (`replayed`, as it stands now: an overdue hold reads EXPIRED). 409 BOOKING_UNAVAILABLE when a unit
     * lacks room, BOOKING_TOO_MANY_HOLDS when `maxLiveHolds` of the consumer's wait (a payment, a partner's answer).
     * `pay`: paid in the same transaction and secured at once (`paidAtOnce`; not counted then); refused, HELD and
     * `payRefused`. `check`: the caller's own reads and refusals, replays too (a throw aborts everything). `paid`'s twin.
     * `answerPaid`: the request's answer made from a booking paid at once, written in the same commit (`answer`).
     */
    async hold<A = never>(
      request: HoldRequest,
      {
        pay,
        check,
        answerPaid,
      }: { pay?: PayInHold; check?: (tx: Transaction) => Promise<void>; answerPaid?: (tx: Transaction, booking: BookingRecord) => A } = {},
    ): Promise<{ booking: BookingRecord; replayed: boolean; paidAtOnce?: true; payRefused?: AppError; answer?: A }> {
      checkRequest(request);
      const id = stableId({ scope: `bookings.${request.vertical}`, caller: request.consumerId, key: request.idempotencyKey });
      const count = (tx: Transaction, at: number) => bookingsRepo.txLiveHolds(tx, request.consumerId, at, settings.maxLiveHolds);
      return oneAtATime(resourceQueueKey(inventoryResourceOf(request)), busy, () =>
        inTransaction(
          async (tx) => {
            const at = now();
            const record = newHold(request, id, at, at + settings.holdMinutes * 60_000);
            const inventory = { ...inventoryOf(record, at), capacityOf: request.capacityOf, qty: request.qty, until: record.holdUntil! };
            const paysNow = pay !== undefined && record.payment.dueVnd > 0;
            // Paid and confirmed at once, it never is an unpaid hold: the consumer's holds are counted only if the payment is refused.
            const countLater = paysNow && !record.needsPartnerAnswer;
            const [existing, held, counted, paying] = await Promise.all([
              bookingsRepo.get(id, tx),
              settled(bookingInventory.txHold(tx, inventory)),
              countLater ? undefined : count(tx, at),
              paysNow ? settled(pay(tx, record)) : undefined,
              check?.(tx),
            ]);
            if (existing) {
              // A key freed by a failed request and sent again with another booking is not that booking.
              if (existing.resource.id !== request.resource.id || existing.qty !== request.qty || existing.units.join() !== request.units.join())
                throw new IdempotencyKeyReusedError();
              return { booking: bookingDeadline.settle(existing, at).entity, replayed: true };
            }
            const paid = paying && 'value' in paying ? paying.value : undefined;
            const refused = paying && 'err' in paying ? paying.err : undefined;
            if (paying && !paid && !isPaymentRefusal(refused)) throw refused;
            const liveHolds = paid && countLater ? 0 : (counted ?? (await count(tx, at)));
            if (liveHolds >= settings.maxLiveHolds)
              throw new AppError(409, `You have ${liveHolds} bookings waiting for payment: pay or cancel one first`, {
                max: settings.maxLiveHolds,
              }).withCode('BOOKING_TOO_MANY_HOLDS');
            if ('err' in held) throw held.err;
            if (paid) {
              const booking = await securedAtOnce(tx, record, held.value.write, paid, settings.answerHours);
              // The request's answer, stored in this commit (answerPaid: the route's answerInCommit).
              const answer = answerPaid?.(tx, booking);
              return { booking, replayed: false, paidAtOnce: true as const, ...(answer !== undefined ? { answer } : {}) };
            }
            held.value.write();
            bookingsRepo.create(tx, record);
            return { booking: record, replayed: false, ...(isPaymentRefusal(refused) ? { payRefused: refused } : {}) };
          },
          { readsTogether: true },
        ),
      );
    },

    /**
     * Paid what was due (`receipt`; none when nothing is due), at-least-once callers welcome: CONFIRMED, or
     * PENDING_PARTNER with its capacity held until the partner's answer is due (`answerHours`, and never past the
     * start). `already` for a booking secured before; `too-late` for one that expired or was cancelled meanwhile (a
     * payment for it is to be refunded). A payment made with the hold secures it there (`hold`'s `pay`, securedAtOnce).
     */
    async paid(
      id: string,
      receipt?: { paymentId: string; amountVnd: number },
      known?: BookingRecord,
    ): Promise<{ booking: BookingRecord; outcome: PaidOutcome }> {
      // `known`: the booking as its caller holds it (the move reads it again in its transaction; its due never changes).
      const current = known ?? (await load(id));
      const due = current.payment.dueVnd;
      if (due > 0 ? receipt?.amountVnd !== due : receipt !== undefined)
        throw new Error(`bookings: booking ${id} is secured by a payment of ${due} ₫ (got ${receipt ? receipt.amountVnd : 'none'})`);
      const answerBy = (b: BookingRecord, at: number) => answerByOf(b.startsAt, at, settings.answerHours);
      const moved = await move(current, 'SYSTEM', current.needsPartnerAnswer ? 'submit' : 'confirm', {
        inventory: current.needsPartnerAnswer ? { holdUntil: answerBy } : 'confirm',
        tolerant: 'refused',
        apply: (b, to, at) => securedBy(b, to, at, receipt, answerBy(b, at)),
      });
      const outcome: PaidOutcome = moved.changed ? 'secured' : SECURED.includes(moved.after.status) ? 'already' : 'too-late';
      return { booking: moved.after, outcome };
    },

    /** The partner's answer to a booking waiting for it: CONFIRMED (its capacity taken for good), or REJECTED with a reason (given back). */
    answer(id: string, caller: BookingCaller, answer: { accepted: true } | { accepted: false; reason: string }): Promise<BookingRecord> {
      if (answer.accepted)
        return moveById(id, caller, 'accept', { inventory: 'confirm', apply: (b, to, at) => ({ ...b, status: to, answerBy: null, updatedAt: at }) });
      return moveById(id, caller, 'reject', {
        inventory: 'release',
        apply: (b, to, at) => ({ ...b, status: to, answerBy: null, rejection: { by: caller.by, reason: answer.reason }, updatedAt: at }),
      });
    },

    /**
     * Cancels by the policy (the consumer pays its late fee once paid), the capacity given back. A consumer cannot
     * cancel once the booking has started (409 BOOKING_STARTED); its partner or an administrator can.
     */
    cancel(id: string, caller: BookingCaller, reason: string | null = null): Promise<BookingRecord> {
      return moveById(id, caller, 'cancel', {
        inventory: 'release',
        guard: (b, at) => {
          if (caller.role === 'CONSUMER' && at >= b.startsAt)
            throw new AppError(409, 'The booking has started: ask the partner to cancel it').withCode('BOOKING_STARTED');
        },
        apply: (b, to, at) => {
          const { feeVnd, refundVnd } = cancellationFee(b.policy, {
            priceVnd: b.priceVnd,
            paidVnd: b.payment.paidVnd,
            startsAt: b.startsAt,
            now: at,
            by: caller.role,
          });
          return { ...b, status: to, holdUntil: null, answerBy: null, cancellation: { by: caller.by, reason, feeVnd, refundVnd }, updatedAt: at };
        },
      });
    },

    /**
     * The partner proposes another time instead of answering yes (a viewing, an appointment): the booking waiting for
     * it is REJECTED with the proposal, and a new booking at the proposed units is HELD for its consumer, already
     * agreed by the partner (no answer needed), until the partner's answer window or its start; its consumer takes it
     * with `agree` (or `pay`) or lets it expire. Both in one transaction; a second proposal on the same request is 409
     * (it no longer waits for an answer).
     */
    async propose(
      id: string,
      caller: BookingCaller,
      to: { units: string[]; startsAt: number; endsAt: number; capacityOf(unit: string): number; note: string | null },
    ): Promise<{ rejected: BookingRecord; proposed: BookingRecord }> {
      const current = await load(id);
      const proposalId = stableId({ scope: 'bookings.proposal', caller: current.consumerId, key: `${current.id}:${to.units.join(',')}` });
      let proposed: BookingRecord | undefined;
      const rejected = await move(current, caller, 'reject', {
        guard: () => {
          if (to.units.join() === current.units.join()) throw new AppError(422, 'Propose another time than the one asked for').withCode('BOOKING_SAME_TIME');
        },
        alongside: async (tx, previous, at) => {
          const holdUntil = answerByOf(to.startsAt, at, settings.answerHours);
          const record: BookingRecord = {
            ...previous,
            id: proposalId,
            status: 'HELD',
            units: to.units,
            startsAt: to.startsAt,
            endsAt: to.endsAt,
            needsPartnerAnswer: false,
            // Paid afresh (what the rejected one took is refunded with it): `pay`, or `agree` when nothing is due.
            payment: { ...previous.payment, paidVnd: 0, paymentId: null },
            holdUntil,
            answerBy: null,
            cancellation: null,
            rejection: null,
            settlement: {},
            details: { ...previous.details, proposedBy: caller.role, replaces: previous.id },
            createdAt: at,
            updatedAt: at,
          };
          const inventory = { ...inventoryOf(record, at), capacityOf: to.capacityOf, qty: record.qty, until: holdUntil };
          const held = await settled(bookingInventory.txHold(tx, inventory));
          if ('err' in held) throw held.err;
          proposed = record;
          return () => {
            held.value.write();
            bookingsRepo.create(tx, record);
          };
        },
        inventory: 'release',
        apply: (b, to2, at) => ({
          ...b,
          status: to2,
          answerBy: null,
          rejection: { by: caller.by, reason: to.note ?? 'Another time proposed', proposalId, proposedStartsAt: to.startsAt },
          updatedAt: at,
        }),
      });
      return { rejected: rejected.after, proposed: proposed! };
    },

    /** The consumer takes a time its partner proposed (a HELD booking made by `propose`, nothing to pay): CONFIRMED. */
    async agree(id: string, caller: BookingCaller): Promise<BookingRecord> {
      const current = await load(id);
      if (!sees(caller, current) || caller.role !== 'CONSUMER') throw notFound();
      if (current.details.proposedBy === undefined || current.payment.dueVnd > 0)
        throw new AppError(409, 'Only a time the partner proposed is agreed to', { status: current.status }).withCode('BOOKING_TRANSITION');
      return (
        await move(current, caller, 'agree', {
          inventory: 'confirm',
          apply: (b, to, at) => ({ ...b, status: to, holdUntil: null, updatedAt: at }),
        })
      ).after;
    },

    /**
     * An administrator's cancellation, whatever the status short of an end: before it began as `cancel` (free to
     * the consumer), once begun (checked in, in progress) by `annul`; all that was paid is refunded either way.
     */
    async adminCancel(id: string, caller: BookingCaller, reason: string): Promise<BookingRecord> {
      const current = await load(id);
      const begun = current.status === 'CHECKED_IN' || current.status === 'IN_PROGRESS';
      return (
        await move(current, caller, begun ? 'annul' : 'cancel', {
          inventory: 'release',
          apply: (b, to, at) => ({
            ...b,
            status: to,
            holdUntil: null,
            answerBy: null,
            cancellation: { by: caller.by, reason, feeVnd: 0, refundVnd: b.payment.paidVnd },
            updatedAt: at,
          }),
        })
      ).after;
    },

    /**
     * The partner starts what was booked, as its vertical does: CHECKED_IN (a stay, a parking space, a patient at the
     * desk) or IN_PROGRESS (a visit, a service), from the vertical's `beginAheadSec` before the start.
     */
    async begin(id: string, caller: BookingCaller, asked?: 'checkIn' | 'start') {
      const current = await load(id);
      const rules = VERTICAL_RULES[current.vertical];
      if (asked && asked !== rules.beginMove && sees(caller, current))
        throw new AppError(409, `A ${current.vertical} booking is begun by ${rules.beginMove}`, {
          status: current.status,
          allowed: [rules.beginMove],
        }).withCode('BOOKING_TRANSITION');
      return (await move(current, caller, rules.beginMove, { guard: notBefore((b) => b.startsAt - rules.beginAheadSec * 1000, now) })).after;
    },

    /**
     * Done: COMPLETED by the partner, never before the start (a check-in ahead of it is not a stay had: 409
     * BOOKING_TOO_EARLY); the units still ahead (an early check-out) are given back. `details`: the vertical's fields
     * of the completion (a home service's photos), merged into the booking's.
     */
    complete: (id: string, caller: BookingCaller, details?: Record<string, unknown>) =>
      moveById(id, caller, 'complete', {
        inventory: 'release',
        guard: (b) => {
          notBefore((x) => x.startsAt, now)(b);
          const path = VERTICAL_RULES[b.vertical].completeRoute;
          if (path && !details) throw new AppError(409, `Complete it with ${path}`, { path }).withCode('BOOKING_COMPLETE_WITH_DETAILS');
        },
        apply: (b, to, at) => ({ ...b, status: to, extraCharge: overstayOf(b, at), details: { ...b.details, ...details }, updatedAt: at }),
      }),

    /** The guest never came: NO_SHOW (the partner, from the vertical's `noShowAfterSec` after the start), the capacity given back. */
    noShow: (id: string, caller: BookingCaller) =>
      moveById(id, caller, 'noShow', { inventory: 'release', guard: notBefore((b) => b.startsAt + VERTICAL_RULES[b.vertical].noShowAfterSec * 1000, now) }),

    /** The deadline's task (at least once): expires the booking when due; a task armed for a deadline since moved later settles. */
    expire: (id: string, armedFor?: number) =>
      bookingDeadline.run(id, {
        load: (bookingId) => bookingsRepo.get(bookingId),
        expire: (bookingId) => moveById(bookingId, 'SYSTEM', 'expire', { tolerant: 'refused' }),
        armedFor,
        now,
      }),

    /** What is left of a resource's capacity in each unit: capacity minus live holds and confirmed bookings (overdue holds count for nothing). */
    available: (vertical: BookingVertical, resourceId: string, units: readonly string[], capacityOf: (unit: string) => number) =>
      bookingInventory.available(inventoryResourceOf({ vertical, resource: { id: resourceId } }), units, capacityOf, now()),

    /** One booking as the caller may see it, its deadline settled (an overdue hold reads EXPIRED). */
    async get(id: string, caller: BookingCaller): Promise<BookingRecord> {
      const found = await bookingsRepo.get(id);
      if (!found || !sees(caller, found)) throw notFound();
      return bookingDeadline.settle(found, now()).entity;
    },
  };
}

export type BookingEngine = ReturnType<typeof createBookingEngine>;
