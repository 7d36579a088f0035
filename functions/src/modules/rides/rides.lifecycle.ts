import { ConflictError, NotFoundError } from '../../platform/core/errors/app-error';
import { defineMachine, transition, type TransitionStore } from '../../platform/kits/state-machine/state-machine';
import { dispatchPool, driverProfiles, type DriverLocation } from '../driver';
import { accounts } from '../users';
import {
  ACTIVE_STATUSES,
  RIDE_STATUSES,
  RIDE_SYSTEM_REASONS,
  rideMachine,
  systemReason,
  timedOutFare,
  type RideAction,
  type RideActor,
  type RideRecord,
  type RideStatus,
  type RideSystemReason,
} from './rides.model';
import { ridesRepo } from './rides.repo';
import { rolesOf, type RideViewer, type RidesCore } from './rides.context';
import type { ExpiryScheduler, RideDeadlines } from './rides.deadlines';
import type { RidePricing } from './rides.pricing';
import type { RideSettlement } from './rides.settlement';

// The ride's moves on platform/kits/state-machine and its timer on platform/kits/deadlines: `move` (one transition
// of the ride and its driver's state), `assign` (a driver claimed for a new ride), `handOver` (a driver's
// cancellation: the next driver, or NO_DRIVER), and the expiry the timer (or a read past the deadline) triggers.

/**
 * The driver as the claiming transaction reads them: whether the account may drive now (not locked, DRIVER, with the
 * profile's RIDE capability: a lock or a lost role takes the driver out of dispatch at once, where the location
 * document catches up by trigger) and the card the rider sees, from the same reads. The rating (a summary nobody
 * needs locked) comes from beside the transaction.
 */
async function txDriver(tx: FirebaseFirestore.Transaction, driverId: string, rating: Promise<number | null>) {
  const [account, profile, average] = await Promise.all([accounts.get(driverId, tx), driverProfiles.txProfile(tx, driverId), rating]);
  const mayDrive = !!account && !account.disabled && account.roles.includes('DRIVER') && (profile?.capabilities.includes('RIDE') ?? false);
  const v = profile?.vehicle ?? null;
  const card = {
    name: account?.name ?? 'Driver',
    vehicle: v ? { type: v.type, plate: v.plate, model: v.model ?? null, color: v.color ?? null } : null,
    rating: average,
  };
  return { mayDrive, card };
}

const EXPIRY_REASONS: Partial<Record<RideRecord['status'], RideSystemReason>> = {
  CONFIRMED: 'driverLate',
  ARRIVED: 'startLate',
  IN_PROGRESS: 'tripOverdue',
};

/** A booking before its driver: NEW until `assign` stores it CONFIRMED (the machine of that one move). */
type Booking = Omit<RideRecord, 'status'> & { status: 'NEW' | RideStatus };
const bookingMachine = defineMachine<Booking['status'], 'assign', RideActor>({
  entity: 'ride',
  states: ['NEW', ...RIDE_STATUSES],
  moves: { assign: { from: 'NEW', to: 'CONFIRMED', by: 'system' } },
  codes: { transition: 'RIDE_TRANSITION', actor: 'RIDE_NOT_ALLOWED' },
});

/** The driver was taken meanwhile (or may not drive): thrown inside the move to drop it, and the next candidate is tried. */
class DriverTaken extends Error {}
const unlessTaken = <T>(moved: Promise<T>): Promise<T | undefined> =>
  moved.catch((err: unknown) => {
    if (err instanceof DriverTaken) return undefined;
    throw err;
  });

/** A stored ride's moves: read and written through the repository, events under `rides/{id}/events`. */
function rideStore(
  id: string,
  alongside?: TransitionStore<RideRecord, RideStatus, RideAction>['alongside'],
): TransitionStore<RideRecord, RideStatus, RideAction> {
  return {
    load: (tx) => ridesRepo.get(id, tx),
    save: (tx, next) => ridesRepo.save(tx, next),
    ref: () => ridesRepo.ref(id),
    ...(alongside ? { alongside } : {}),
  };
}

const noSuchRide = () => new NotFoundError('No such ride');

export function createRideLifecycle(
  { deps, now }: RidesCore,
  { expiry: deadline }: Pick<RideDeadlines, 'expiry'>,
  scheduler: ExpiryScheduler,
  { pricing, settlement }: { pricing: Pick<RidePricing, 'waitedFee'>; settlement: Pick<RideSettlement, 'settleAndRecord'> },
) {
  /**
   * One move of the ride and its driver's state, in one transaction; effects on money follow the commit. `check`
   * sees the ride and the driver's position document once the machine allows the move (geofences refuse there).
   */
  async function move(
    id: string,
    action: RideAction,
    actor: RideViewer | 'system',
    change: (ride: RideRecord, at: number) => Partial<RideRecord>,
    driverEffect: 'release' | 'startTrip' | 'none',
    reason?: string | null,
    check?: (ride: RideRecord, driverLoc: DriverLocation | undefined, at: number) => void,
  ) {
    const at = now();
    let driverLoc: DriverLocation | undefined; // read in the transaction (each attempt), written alongside the ride
    const store = rideStore(id, (tx, next, previous) => {
      if (previous.driverId && driverEffect === 'release') dispatchPool.txRelease(tx, driverLoc, id, at);
      if (previous.driverId && driverEffect === 'startTrip') dispatchPool.txStartTrip(tx, driverLoc, id, at);
      if (!ACTIVE_STATUSES.includes(next.status)) ridesRepo.setActive(tx, previous.riderId, null, at);
    });
    const { before, after } = await transition(rideMachine, store, {
      action,
      by: actor === 'system' ? 'system:rides' : actor.userId,
      now: at,
      reason: reason ?? null,
      missing: noSuchRide,
      visible: (ride) => actor === 'system' || actor.admin || ride.participants.includes(actor.userId),
      rolesOf: (ride) => (actor === 'system' ? ['system'] : rolesOf(ride, actor)),
      async read(tx, ride) {
        driverLoc = ride.driverId ? await dispatchPool.txRead(tx, ride.driverId) : undefined;
        // The distance driven so far, as the driver's position document counts it during the trip.
        return { ...ride, drivenM: driverLoc?.tripActive && driverLoc.currentRideId === id ? driverLoc.tripDistanceM : ride.drivenM };
      },
      // The caller's checks only for a move the status allows (else the machine's 409 comes first, as it always did).
      guard: (ride, current) => (rideMachine.accepts(action, ride.status) ? check?.(current, driverLoc, at) : undefined),
      apply: (ride, to, current) => ({ ...ride, ...change(current, at), status: to, updatedAt: at }),
    });
    return { before, after };
  }

  /**
   * Tries the candidates nearest first: each attempt is one move NEW → CONFIRMED that re-reads the ride (a retry
   * finds it and gets it back), the rider's active ride, and the driver (still ONLINE, free, fresh), then writes the
   * claim and the ride together. Returns the ride, or undefined when every candidate was taken meanwhile.
   */
  async function assign(base: RideRecord, candidates: Array<{ userId: string; lat: number; lng: number }>, at: number): Promise<RideRecord | undefined> {
    for (const candidate of candidates) {
      // The ETA before the transaction (a routing service's answer never holds its locks); the driver's rating beside it
      // (outside it: nothing to lock there), so it costs no round trip of its own.
      const eta = await deps.router.route(candidate, base.pickup, base.rideClass, at).catch(() => undefined);
      let driverLoc: DriverLocation | undefined;
      const store: TransitionStore<Booking, Booking['status'], 'assign'> = {
        load: async (tx) => (await ridesRepo.get(base.id, tx)) ?? { ...base, status: 'NEW' },
        save: (tx, next, previous) => (previous.status === 'NEW' ? ridesRepo.create(tx, next as RideRecord) : ridesRepo.save(tx, next as RideRecord)),
        ref: () => ridesRepo.ref(base.id),
        alongside(tx) {
          if (!dispatchPool.txClaim(tx, driverLoc, { rideId: base.id, riderId: base.riderId, rideClass: base.rideClass, at })) throw new DriverTaken();
          ridesRepo.setActive(tx, base.riderId, base.id, at);
        },
      };
      const moved = await unlessTaken(
        transition(bookingMachine, store, {
          action: 'assign',
          by: 'system:dispatch',
          now: at,
          reason: `driver ${candidate.userId}`,
          missing: noSuchRide,
          rolesOf: () => ['system'],
          beside: () => ridesRepo.averageRating(candidate.userId),
          async read(tx, _ride, rating) {
            const [active, loc, { mayDrive, card }] = await Promise.all([
              ridesRepo.activeOf(base.riderId, tx),
              dispatchPool.txRead(tx, candidate.userId),
              txDriver(tx, candidate.userId, rating),
            ]);
            driverLoc = loc;
            // One who may not drive now is passed over as a driver taken: the next candidate is tried.
            return { active, mayDrive, card };
          },
          guard(ride, { active, mayDrive }) {
            if (ride.status !== 'NEW') return; // stored already: given back as it is (tolerant)
            if (active) throw new ConflictError('You already have a ride in progress', { rideId: active }).withCode('RIDE_ACTIVE');
            if (!mayDrive) throw new DriverTaken();
          },
          apply: (ride, to, { card }) => ({
            ...ride,
            driverId: candidate.userId,
            participants: [base.riderId, candidate.userId],
            status: to,
            driver: card,
            etaToPickupSec: eta?.durationSec ?? null,
            confirmedAt: at,
            updatedAt: at,
          }),
          // A ride stored already (a retried booking) is any status but NEW: returned unchanged.
          tolerant: 'refused',
        }),
      );
      if (moved) return moved.after as RideRecord;
    }
    return undefined;
  }

  /**
   * A driver's cancellation: hands the ride to `candidate` (undefined when taken meanwhile), or without one ends it
   * NO_DRIVER. One move reads the ride, both drivers and the candidate's account, then writes them together.
   */
  async function handOver(
    ride: RideRecord,
    actor: RideViewer,
    candidate: { userId: string } | undefined,
    excluded: string[],
    reason: string | null,
    at: number,
  ): Promise<RideRecord | undefined> {
    let drivers: { leaving?: DriverLocation; arriving?: DriverLocation; mayDrive: boolean } = { mayDrive: false };
    const store = rideStore(ride.id, (tx, next) => {
      const claimed =
        candidate && drivers.mayDrive && dispatchPool.txClaim(tx, drivers.arriving, { rideId: ride.id, riderId: ride.riderId, rideClass: ride.rideClass, at });
      if (candidate && !claimed) throw new DriverTaken(); // taken meanwhile: the next candidate
      dispatchPool.txRelease(tx, drivers.leaving, ride.id, at);
      if (!candidate) ridesRepo.setActive(tx, next.riderId, null, at);
    });
    const moved = await unlessTaken(
      transition(rideMachine, store, {
        action: candidate ? 'reassign' : 'abandon',
        by: actor.userId,
        now: at,
        reason: reason ?? `driver ${ride.driverId} cancelled`,
        missing: noSuchRide,
        rolesOf: (current) => rolesOf(current, actor),
        // The candidate's rating beside the transaction (nothing to lock there): no round trip of its own.
        beside: async () => (candidate ? ridesRepo.averageRating(candidate.userId) : null),
        async read(tx, current, rating) {
          // Before the machine's check: the driver who cancelled is no longer this ride's.
          if (current.driverId !== ride.driverId) throw new ConflictError('The ride has another driver now').withCode('RIDE_NOT_ALLOWED');
          const [leaving, arriving, arrivingDriver] = await Promise.all([
            dispatchPool.txRead(tx, ride.driverId!),
            candidate ? dispatchPool.txRead(tx, candidate.userId) : undefined,
            candidate ? txDriver(tx, candidate.userId, rating) : undefined,
          ]);
          drivers = { leaving, arriving, mayDrive: arrivingDriver?.mayDrive ?? true };
          return { card: arrivingDriver?.card ?? null };
        },
        apply: (current, to, { card }): RideRecord =>
          candidate
            ? {
                ...current,
                status: to,
                driverId: candidate.userId,
                participants: [current.riderId, candidate.userId],
                driver: card,
                excludedDriverIds: excluded,
                reassignments: current.reassignments + 1,
                confirmedAt: at,
                arrivedAt: null,
                etaToPickupSec: null,
                updatedAt: at,
              }
            : {
                ...current,
                status: to,
                excludedDriverIds: excluded,
                cancelledBy: 'driver',
                cancelReason: reason,
                cancelReasonCode: null,
                endedAt: at,
                updatedAt: at,
              },
      }),
    );
    return moved?.after;
  }

  /** The timer of the ride's active status (from the trigger; one task per ride and status, retried until due). */
  async function scheduleExpiry(ride: RideRecord): Promise<void> {
    await deadline.arm({ schedule: scheduler.schedule }, ride, now(), ride.status);
  }

  /**
   * Ends an overdue active ride, the driver freed. CONFIRMED: EXPIRED, the hold released. ARRIVED: EXPIRED with the
   * rider's late-cancel fee (the driver waited at the pickup). IN_PROGRESS: COMPLETED at the distance driven
   * (timedOutFare), charged as a completion. Inside the transaction the status is checked first, then the deadline:
   * a driver's `complete` committed before wins, and this finds COMPLETED and does nothing.
   */
  async function expire(id: string): Promise<RideRecord | undefined> {
    try {
      const seen = await ridesRepo.get(id);
      const started = seen?.status === 'IN_PROGRESS';
      const { after } = await move(
        id,
        started ? 'complete' : 'expire',
        'system',
        (r, at) => {
          if (r.status === 'IN_PROGRESS') return { ...timedOutFare(r, r.drivenM ?? 0, at), completedAt: at, endedAt: at };
          const fee = r.status === 'ARRIVED' ? pricing.waitedFee(r, at) : 0;
          const code = EXPIRY_REASONS[r.status];
          return { endedAt: at, cancelledBy: 'system', ...(code ? systemReason(code) : { cancelReason: null, cancelReasonCode: null }), cancellationFee: fee };
        },
        'release',
        started ? RIDE_SYSTEM_REASONS.tripOverdue : null,
        (r, _loc, at) => {
          if (!deadline.isDue(r, at)) throw new ConflictError('Not due').withCode('RIDE_TRANSITION');
        },
      );
      return settlement.settleAndRecord(after);
    } catch (err) {
      if (err instanceof ConflictError || err instanceof NotFoundError) return undefined;
      throw err;
    }
  }

  /** The `rideExpiry` task's work: waits for the due time (or asks the queue to retry), then expires the ride. */
  function runExpiry(id: string) {
    return deadline.run(id, { load: (rideId) => ridesRepo.get(rideId), expire, now });
  }

  async function visible(id: string, actor: RideViewer): Promise<RideRecord> {
    const ride = await ridesRepo.get(id);
    if (!ride || (!actor.admin && !ride.participants.includes(actor.userId))) throw new NotFoundError('No such ride');
    if (deadline.isDue(ride, now())) return (await expire(id)) ?? (await ridesRepo.get(id))!;
    return ride;
  }

  return { move, assign, handOver, scheduleExpiry, expire, runExpiry, visible };
}

export type RideLifecycle = ReturnType<typeof createRideLifecycle>;
