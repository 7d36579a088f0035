import { ConflictError, NotFoundError } from '../../platform/core/errors/app-error';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { logger } from '../../platform/core/logging/logger';
import { recordTransition } from '../../platform/kits/state-machine/state-machine';
import { dispatchPool, type DriverLocation } from '../driver';
import { accounts } from '../users';
import {
  ACTIVE_STATUSES,
  deadlineOf,
  isOverdue,
  RIDE_SYSTEM_REASONS,
  rideMachine,
  systemReason,
  timedOutFare,
  type RideAction,
  type RideActor,
  type RideRecord,
  type RideSystemReason,
} from './rides.model';
import { ridesRepo } from './rides.repo';
import { rolesOf, type RideViewer, type RidesCore } from './rides.context';
import type { RidePricing } from './rides.pricing';
import type { RideSettlement } from './rides.settlement';

// The ride's moves and timers, hand-rolled until the state-machine and deadline kits take them: `move` (one
// transition of the ride and its driver's state), `assign` (a driver claimed for a new ride), `handOver` (a driver's
// cancellation: the next driver, or NO_DRIVER), and the ExpiryScheduler with the expiry it triggers.

export interface ExpiryScheduler {
  /** The timer of the ride's current status (one task per ride and status). */
  schedule(rideId: string, status: RideRecord['status'], delaySec: number): Promise<void>;
  /** The check that releases a booking's wallet hold if nothing captured or released it by then. */
  holdCheck(rideId: string, paymentId: string, delaySec: number): Promise<void>;
}

/** The driver's card for the rider; null when the driver may not take rides now (no RIDE capability on the profile). */
async function driverCard(driverId: string) {
  const [account, profile, rating] = await Promise.all([accounts.get(driverId), dispatchPool.profile(driverId), ridesRepo.averageRating(driverId)]);
  if (!profile?.capabilities?.includes('RIDE')) return null;
  const v = profile.vehicle ?? null;
  return { name: account?.name ?? 'Driver', vehicle: v ? { type: v.type, plate: v.plate, model: v.model ?? null, color: v.color ?? null } : null, rating };
}

/**
 * Whether the account may drive now, read in the claiming transaction: a lock or a lost DRIVER role takes the
 * driver out of dispatch at once (their location document says available until it goes stale).
 */
async function txMayDrive(tx: FirebaseFirestore.Transaction, driverId: string): Promise<boolean> {
  const account = await accounts.get(driverId, tx);
  return !!account && !account.disabled && account.roles.includes('DRIVER');
}

const EXPIRY_REASONS: Partial<Record<RideRecord['status'], RideSystemReason>> = {
  CONFIRMED: 'driverLate',
  ARRIVED: 'startLate',
  IN_PROGRESS: 'tripOverdue',
};

export function createRideLifecycle(
  { deps, now }: RidesCore,
  scheduler: ExpiryScheduler,
  { pricing, settlement }: { pricing: Pick<RidePricing, 'waitedFee'>; settlement: Pick<RideSettlement, 'settleAndRecord'> },
) {
  /**
   * One move of the ride and its driver's state, in one transaction; effects on money follow the commit. `check`
   * sees the ride and the driver's position document after the machine's check (geofences refuse there).
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
    return inTransaction(async (tx) => {
      const ride = await ridesRepo.get(id, tx);
      if (!ride || (actor !== 'system' && !actor.admin && !ride.participants.includes(actor.userId))) throw new NotFoundError('No such ride');
      const roles = actor === 'system' ? (['system'] as RideActor[]) : rolesOf(ride, actor);
      const to = rideMachine.check(action, ride.status, roles);
      const driverLoc = ride.driverId ? await dispatchPool.txRead(tx, ride.driverId) : undefined;
      const current = { ...ride, drivenM: driverLoc?.tripActive && driverLoc.currentRideId === id ? driverLoc.tripDistanceM : ride.drivenM };
      check?.(current, driverLoc, at);
      const next: RideRecord = { ...ride, ...change(current, at), status: to, updatedAt: at };
      if (ride.driverId && driverEffect === 'release') dispatchPool.txRelease(tx, driverLoc, id, at);
      if (ride.driverId && driverEffect === 'startTrip') dispatchPool.txStartTrip(tx, driverLoc, id, at);
      if (!ACTIVE_STATUSES.includes(to)) ridesRepo.setActive(tx, ride.riderId, null, at);
      ridesRepo.save(tx, next);
      recordTransition(tx, ridesRepo.ref(id), {
        action,
        from: ride.status,
        to,
        by: actor === 'system' ? 'system:rides' : actor.userId,
        at,
        reason: reason ?? null,
      });
      return { before: ride, after: next };
    });
  }

  /**
   * Tries the candidates nearest first: each attempt is one transaction that re-reads the ride (a retry finds it),
   * the rider's active ride, and the driver (still ONLINE, free, fresh), then writes the claim and the ride together.
   * Returns the ride, or undefined when every candidate was taken meanwhile.
   */
  async function assign(base: RideRecord, candidates: Array<{ userId: string; lat: number; lng: number }>, at: number): Promise<RideRecord | undefined> {
    for (const candidate of candidates) {
      const [eta, card] = await Promise.all([
        deps.router.route(candidate, base.pickup, base.rideClass, at).catch(() => undefined),
        driverCard(candidate.userId),
      ]);
      if (!card) continue;
      const result = await inTransaction(async (tx) => {
        const [existing, active, driverLoc, mayDrive] = await Promise.all([
          ridesRepo.get(base.id, tx),
          ridesRepo.activeOf(base.riderId, tx),
          dispatchPool.txRead(tx, candidate.userId),
          txMayDrive(tx, candidate.userId),
        ]);
        if (existing) return { ride: existing };
        if (active) throw new ConflictError('You already have a ride in progress', { rideId: active }).withCode('RIDE_ACTIVE');
        if (!mayDrive) return undefined;
        const claimed = dispatchPool.txClaim(tx, driverLoc, { rideId: base.id, riderId: base.riderId, rideClass: base.rideClass, at });
        if (!claimed) return undefined;
        const ride: RideRecord = {
          ...base,
          driverId: candidate.userId,
          participants: [base.riderId, candidate.userId],
          status: 'CONFIRMED',
          driver: card,
          etaToPickupSec: eta?.durationSec ?? null,
          confirmedAt: at,
          updatedAt: at,
        };
        ridesRepo.create(tx, ride);
        ridesRepo.setActive(tx, base.riderId, base.id, at);
        recordTransition<string, string>(tx, ridesRepo.ref(base.id), {
          action: 'assign',
          from: 'NEW',
          to: 'CONFIRMED',
          by: 'system:dispatch',
          at,
          reason: `driver ${candidate.userId}`,
        });
        return { ride };
      });
      if (result) return result.ride;
    }
    return undefined;
  }

  /**
   * A driver's cancellation: hands the ride to `candidate` (undefined when taken meanwhile), or without one ends it
   * NO_DRIVER. One transaction reads the ride, both drivers and the candidate's account, then moves them together.
   */
  async function handOver(
    ride: RideRecord,
    actor: RideViewer,
    candidate: { userId: string } | undefined,
    excluded: string[],
    reason: string | null,
    at: number,
  ): Promise<RideRecord | undefined> {
    const card = candidate ? await driverCard(candidate.userId) : null;
    if (candidate && !card) return undefined;
    return inTransaction(async (tx) => {
      const [current, leaving, arriving, mayDrive] = await Promise.all([
        ridesRepo.get(ride.id, tx),
        dispatchPool.txRead(tx, ride.driverId!),
        candidate ? dispatchPool.txRead(tx, candidate.userId) : undefined,
        candidate ? txMayDrive(tx, candidate.userId) : true,
      ]);
      if (!current) throw new NotFoundError('No such ride');
      if (current.driverId !== ride.driverId) throw new ConflictError('The ride has another driver now').withCode('RIDE_NOT_ALLOWED');
      const action: RideAction = candidate ? 'reassign' : 'abandon';
      const to = rideMachine.check(action, current.status, rolesOf(current, actor));
      const claimed =
        candidate && mayDrive ? dispatchPool.txClaim(tx, arriving, { rideId: ride.id, riderId: ride.riderId, rideClass: ride.rideClass, at }) : undefined;
      if (candidate && !claimed) return undefined; // taken meanwhile: the next candidate
      dispatchPool.txRelease(tx, leaving, ride.id, at);
      const next: RideRecord = candidate
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
          };
      if (!candidate) ridesRepo.setActive(tx, current.riderId, null, at);
      ridesRepo.save(tx, next);
      recordTransition(tx, ridesRepo.ref(ride.id), {
        action,
        from: current.status,
        to,
        by: actor.userId,
        at,
        reason: reason ?? `driver ${ride.driverId} cancelled`,
      });
      return next;
    });
  }

  /** The timer of the ride's active status (from the trigger; one task per ride and status, retried until due). */
  async function scheduleExpiry(ride: RideRecord): Promise<void> {
    const deadline = deadlineOf(ride, deps.timeouts);
    if (deadline === null) return;
    await scheduler
      .schedule(ride.id, ride.status, Math.max(1, Math.ceil((deadline - now()) / 1000)))
      .catch((err: unknown) => logger.warn('ride expiry not scheduled (checked on read)', { rideId: ride.id, error: (err as Error).message }));
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
          if (!isOverdue(r, at, deps.timeouts)) throw new ConflictError('Not due').withCode('RIDE_TRANSITION');
          if (r.status === 'IN_PROGRESS') return { ...timedOutFare(r, r.drivenM ?? 0, at), completedAt: at, endedAt: at };
          const fee = r.status === 'ARRIVED' ? pricing.waitedFee(r, at) : 0;
          const code = EXPIRY_REASONS[r.status];
          return { endedAt: at, cancelledBy: 'system', ...(code ? systemReason(code) : { cancelReason: null, cancelReasonCode: null }), cancellationFee: fee };
        },
        'release',
        started ? RIDE_SYSTEM_REASONS.tripOverdue : null,
      );
      return settlement.settleAndRecord(after);
    } catch (err) {
      if (err instanceof ConflictError || err instanceof NotFoundError) return undefined;
      throw err;
    }
  }

  async function expireIfDue(id: string): Promise<'expired' | 'not-due' | 'settled'> {
    const ride = await ridesRepo.get(id);
    if (!ride || !ACTIVE_STATUSES.includes(ride.status)) return 'settled';
    if (!isOverdue(ride, now(), deps.timeouts)) return 'not-due';
    return (await expire(id)) ? 'expired' : 'settled';
  }

  async function visible(id: string, actor: RideViewer): Promise<RideRecord> {
    const ride = await ridesRepo.get(id);
    if (!ride || (!actor.admin && !ride.participants.includes(actor.userId))) throw new NotFoundError('No such ride');
    if (isOverdue(ride, now(), deps.timeouts)) return (await expire(id)) ?? (await ridesRepo.get(id))!;
    return ride;
  }

  return { move, assign, handOver, scheduleExpiry, expire, expireIfDue, visible };
}

export type RideLifecycle = ReturnType<typeof createRideLifecycle>;
