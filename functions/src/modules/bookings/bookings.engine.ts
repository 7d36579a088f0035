import { AppError, contendedError, NotFoundError } from '../../platform/core/errors/app-error';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { oneAtATime } from '../../platform/kits/firestore/one-at-a-time';
import { stableId } from '../../platform/kits/ids/stable-id';
import { transition, type Expiry } from '../../platform/kits/state-machine/state-machine';
import { iso } from '../../platform/kits/time/time';
import { bookingDeadline } from './bookings.deadline';
import { bookingInventory, resourceQueueKey } from './bookings.inventory';
import { bookingMachine, type BookingAction, type BookingActor, type BookingStatus } from './bookings.machine';
import type { BookingRecord } from './bookings.model';
import { cancellationFee } from './bookings.policy';
import { bookingsRepo } from './bookings.repo';

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
}

export type HoldRequest = Omit<BookingRecord, 'id' | 'status' | 'holdUntil' | 'answerBy' | 'cancellation' | 'rejection' | 'createdAt' | 'updatedAt'> & {
  /** The Idempotency-Key of the consumer's request: the same key is the same booking. */
  idempotencyKey: string;
  /** The resource's capacity of each unit (rooms of the type, spaces, 1 for a slot). */
  capacityOf(unit: string): number;
};

/** Who acts on a booking: the consumer who made it, a partner (its owner or staff, checked by the vertical), an administrator. */
export interface BookingCaller {
  by: string;
  role: Exclude<BookingActor, 'SYSTEM'>;
  /** The partner the caller acts for (role PARTNER). */
  partnerId?: string;
}

const notFound = () => new NotFoundError('No such booking').withCode('BOOKING_NOT_FOUND');
const holdExpired = () => new AppError(409, 'The booking’s hold ran out before it was confirmed: book again').withCode('BOOKING_HOLD_EXPIRED');

/** Whether the caller may see the booking (and so act on it): its consumer, its partner, any administrator. */
export function sees(caller: BookingCaller, b: BookingRecord): boolean {
  if (caller.role === 'ADMIN') return true;
  if (caller.role === 'PARTNER') return caller.partnerId !== undefined && caller.partnerId === b.partnerId;
  return caller.by === b.consumerId;
}

/** A partner may check a guest in, or start a visit, from this long before its start. */
export const BEGIN_AHEAD_MS = 12 * 3_600_000;

export function createBookingEngine(settings: EngineSettings, now: () => number = Date.now) {
  const notBefore = (earliest: (b: BookingRecord) => number) => (b: BookingRecord) => {
    const at = earliest(b);
    if (now() < at) throw new AppError(409, 'Too early for this', { notBefore: iso(at) }).withCode('BOOKING_TOO_EARLY');
  };
  /** The deadline with the capacity given back when it expires the booking. */
  const expiry: Expiry<BookingRecord, BookingStatus, BookingAction> = {
    ...bookingDeadline.expiry(),
    alongside: async (tx, expired, before) => {
      const release = await bookingInventory.txRelease(tx, {
        resourceId: before.resource.id,
        units: before.units,
        bookingId: before.id,
        now: expired.updatedAt,
      });
      release.write();
    },
  };
  const busy = () => contendedError('Many bookings of this resource at this moment: retry in a few seconds');

  async function move(
    id: string,
    caller: BookingCaller | 'SYSTEM',
    action: BookingAction,
    o: {
      apply?(b: BookingRecord, to: BookingStatus, at: number): BookingRecord;
      inventory?: 'confirm' | 'release';
      guard?(b: BookingRecord): void;
      tolerant?: 'target' | 'refused';
    } = {},
  ) {
    const current = await bookingsRepo.get(id);
    if (!current || (caller !== 'SYSTEM' && !sees(caller, current))) throw notFound();
    const at = now();
    return oneAtATime(resourceQueueKey(current.resource.id), busy, async () => {
      const moved = await transition(
        bookingMachine,
        bookingsRepo.store(id, async (tx, _next, previous) => {
          if (!o.inventory) return;
          const p = { resourceId: previous.resource.id, units: previous.units, bookingId: id, now: at };
          if (o.inventory === 'release') return (await bookingInventory.txRelease(tx, p)).write();
          const confirmed = await bookingInventory.txConfirm(tx, p);
          if (!confirmed.held) throw holdExpired();
          confirmed.write();
        }),
        {
          action,
          by: caller === 'SYSTEM' ? 'system:bookings' : caller.by,
          rolesOf: () => [caller === 'SYSTEM' ? 'SYSTEM' : caller.role],
          visible: (b) => caller === 'SYSTEM' || sees(caller, b),
          apply: (b, to) => (o.apply ? o.apply(b, to, at) : { ...b, status: to, updatedAt: at }),
          guard: o.guard,
          now: at,
          missing: notFound,
          deadline: expiry,
          tolerant: o.tolerant,
        },
      );
      return moved.after;
    });
  }

  return {
    /**
     * Holds the capacity for a new booking (HELD until `holdMinutes` from now), or answers the booking the same key
     * made already (`replayed`). 409 BOOKING_UNAVAILABLE when a unit lacks room.
     */
    async hold(request: HoldRequest): Promise<{ booking: BookingRecord; replayed: boolean }> {
      const { idempotencyKey, capacityOf, ...fields } = request;
      const id = stableId({ scope: `bookings.${request.vertical}`, caller: request.consumerId, key: idempotencyKey });
      const at = now();
      const record: BookingRecord = {
        ...fields,
        id,
        status: 'HELD',
        holdUntil: at + settings.holdMinutes * 60_000,
        answerBy: null,
        cancellation: null,
        rejection: null,
        createdAt: at,
        updatedAt: at,
      };
      return oneAtATime(resourceQueueKey(request.resource.id), busy, () =>
        inTransaction(
          async (tx) => {
            const [existing, held] = await Promise.all([
              bookingsRepo.get(id, tx),
              bookingInventory
                .txHold(tx, {
                  resourceId: request.resource.id,
                  units: request.units,
                  capacityOf,
                  bookingId: id,
                  qty: request.qty,
                  until: record.holdUntil!,
                  now: at,
                })
                .then(
                  (h) => ({ h }),
                  (err: unknown) => ({ err }),
                ),
            ]);
            if (existing) return { booking: existing, replayed: true };
            if ('err' in held) throw held.err;
            held.h.write();
            bookingsRepo.create(tx, record);
            return { booking: record, replayed: false };
          },
          { readsTogether: true },
        ),
      );
    },

    /**
     * Paid, or nothing to pay now: the hold becomes a confirmed take of the capacity, and the booking CONFIRMED, or
     * PENDING_PARTNER (answered within `answerHours`). A hold that ran out: 409 (BOOKING_TRANSITION, expired).
     */
    async paid(id: string): Promise<BookingRecord> {
      const current = await bookingsRepo.get(id);
      if (!current) throw notFound();
      const action = current.needsPartnerAnswer ? 'submit' : 'confirm';
      return move(id, 'SYSTEM', action, {
        inventory: 'confirm',
        tolerant: 'target',
        apply: (b, to, at) => ({
          ...b,
          status: to,
          holdUntil: null,
          answerBy: to === 'PENDING_PARTNER' ? at + settings.answerHours * 3_600_000 : null,
          updatedAt: at,
        }),
      });
    },

    /** The partner's answer to a booking waiting for it: CONFIRMED, or REJECTED with a reason (the capacity given back). */
    answer(id: string, caller: BookingCaller, accepted: boolean, reason?: string): Promise<BookingRecord> {
      if (accepted) return move(id, caller, 'accept', { apply: (b, to, at) => ({ ...b, status: to, answerBy: null, updatedAt: at }) });
      return move(id, caller, 'reject', {
        inventory: 'release',
        apply: (b, to, at) => ({ ...b, status: to, answerBy: null, rejection: { by: caller.by, reason: reason ?? '' }, updatedAt: at }),
      });
    },

    /** Cancels by the policy (the consumer pays its late fee once paid); the capacity is given back. */
    cancel(id: string, caller: BookingCaller, reason: string | null = null): Promise<BookingRecord> {
      return move(id, caller, 'cancel', {
        inventory: 'release',
        apply: (b, to, at) => {
          const { feeVnd } = cancellationFee(b.policy, { priceVnd: b.priceVnd, startsAt: b.startsAt, now: at, by: caller.role, paid: b.status !== 'HELD' });
          return { ...b, status: to, holdUntil: null, answerBy: null, cancellation: { by: caller.by, reason, feeVnd }, updatedAt: at };
        },
      });
    },

    /** The partner starts what was booked: CHECKED_IN (a stay, a parking space) or IN_PROGRESS (a visit, a service). */
    begin: (id: string, caller: BookingCaller, how: 'checkIn' | 'start') => move(id, caller, how, { guard: notBefore((b) => b.startsAt - BEGIN_AHEAD_MS) }),

    /** Done: COMPLETED (the partner, or the system at the end); the units still ahead (an early check-out) are given back. */
    complete: (id: string, caller: BookingCaller | 'SYSTEM') => move(id, caller, 'complete', { inventory: 'release' }),

    /** The guest never came: NO_SHOW (the partner), the capacity given back. */
    noShow: (id: string, caller: BookingCaller) => move(id, caller, 'noShow', { inventory: 'release', guard: notBefore((b) => b.startsAt) }),

    /** The deadline's task (at least once): expires the booking when due, nothing otherwise. */
    expire: (id: string) =>
      bookingDeadline.run(id, {
        load: (bookingId) => bookingsRepo.get(bookingId),
        expire: (bookingId) => move(bookingId, 'SYSTEM', 'expire', { tolerant: 'refused' }),
        now,
      }),

    /** One booking as the caller may see it, its deadline settled (an overdue hold reads EXPIRED). */
    async get(id: string, caller: BookingCaller): Promise<BookingRecord> {
      const found = await bookingsRepo.get(id);
      if (!found || !sees(caller, found)) throw notFound();
      return bookingDeadline.settle(found, now()).entity;
    },
  };
}

export type BookingEngine = ReturnType<typeof createBookingEngine>;
