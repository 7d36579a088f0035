import { createHash, createHmac, randomBytes } from 'node:crypto';
import { ConflictError, ForbiddenError, NotFoundError, UnprocessableError } from '../../platform/errors/app-error';
import { holdsPermission } from '../../platform/auth/roles';
import { inTransaction } from '../../platform/firebase/firebase';
import type { PageRequest } from '../../platform/firestore/paginate';
import { blurredForMap, distanceMeters, geohashOf, type LatLng } from '../../platform/geo/geo';
import { logger } from '../../platform/logging/logger';
import { percentOf, vnd } from '../../platform/money/money';
import { recordTransition } from '../../platform/state-machine/state-machine';
import { openContextConversation } from '../chat';
import { dispatchPool, type DriverLocation } from '../driver';
import { paymentCommands } from '../payments';
import type { Router } from '../routing';
import { accounts } from '../users';
import {
  ACTIVE_STATUSES,
  deadlineOf,
  fareCapOf,
  fareOf,
  isFreshPosition,
  isOverdue,
  QUOTE_TTL_MS,
  readQuote,
  RIDE_CLASSES,
  RIDE_STATUSES,
  RIDE_SYSTEM_REASONS,
  rideChatContext,
  rideMachine,
  rideView,
  signQuote,
  surgeOf,
  systemReason,
  timedOutFare,
  type Place,
  type QuoteTerms,
  type RideAction,
  type RideActor,
  type RideClass,
  type RidePaymentMethod,
  type RideRecord,
  type RideSystemReason,
  type RideTimeouts,
} from './rides.model';
import { ridesRepo, type DisputeRecord, type SosRecord } from './rides.repo';
import { iso, isoOrNull } from '../../platform/time';

const CAPTURED_STATUSES: readonly string[] = ['SUCCEEDED', 'PARTIALLY_REFUNDED', 'REFUNDED'];
const disputeView = (d: DisputeRecord) => ({
  ...d,
  outcome: d.outcome ?? null,
  refundAmount: d.refundAmount ?? null,
  refundPaymentId: d.refundPaymentId ?? null,
  note: d.note ?? null,
  resolvedBy: d.resolvedBy ?? null,
  resolvedAt: isoOrNull(d.resolvedAt),
  createdAt: iso(d.createdAt),
});
/** What the rider paid for a ride that ended: the fare, or a cancellation fee that was charged (a payment records it). */
const paidFor = (r: RideRecord) => (!r.paymentId ? 0 : r.status === 'COMPLETED' ? (r.fare ?? 0) : r.status === 'CANCELLED' || r.status === 'EXPIRED' ? r.cancellationFee : 0);
const sosView = (s: SosRecord) => ({ ...s, resolvedAt: s.resolvedAt === null ? null : new Date(s.resolvedAt).toISOString(), createdAt: new Date(s.createdAt).toISOString() });

export interface ExpiryScheduler {
  /** The timer of the ride's current status (one task per ride and status). */
  schedule(rideId: string, status: RideRecord['status'], delaySec: number): Promise<void>;
  /** The check that releases a booking's wallet hold if nothing captured or released it by then. */
  holdCheck(rideId: string, paymentId: string, delaySec: number): Promise<void>;
}

/** Where the server must see the driver before money depends on what the driver says (config, see README). */
export interface Geofence {
  arriveRadiusM: number;
  completeRadiusM: number;
  /** Share of the quoted distance, in basis points, that counts as a trip done far from the drop-off. */
  completeMinDrivenBp: number;
  positionFreshSec: number;
}

/** Who is acting: an administrator counts as one only while holding rides.manage (else a plain party). */
export interface RideViewer {
  userId: string;
  admin: boolean;
}

/** The viewer of a request: ADMIN with the rides.manage permission, or a party like anyone else. */
export function rideViewerOf(auth: { userId: string; roles: readonly string[]; permissions?: string[] }): RideViewer {
  return { userId: auth.userId, admin: auth.roles.includes('ADMIN') && holdsPermission(auth.permissions, 'rides.manage') };
}

export interface RidesServiceDeps {
  router: Router;
  payments: ReturnType<typeof paymentCommands>;
  scheduler: ExpiryScheduler;
  /** Signs quotes (derived from the server secret). */
  quoteKey: Buffer;
  searchRadiusM: number;
  commissionBp: number;
  cancelFee: number;
  cancelGraceSec: number;
  /** A rider's cancellation pays the fee only once the driver has waited this long at the pickup. */
  cancelWaitSec: number;
  timeouts: RideTimeouts;
  geofence: Geofence;
  holdExpirySec: number;
  disputeWindowDays: number;
  now?: () => number;
}

export interface CreateRide {
  pickup: Place;
  dropoff: Place;
  vehicleType: RideClass;
  paymentMethod: RidePaymentMethod;
  quoteId?: string;
  note?: string | null;
}

const CELL_PRECISION = 5; // ≈ 4.9 km × 4.9 km: the neighbourhood surge is computed over
const CANDIDATES = 8;
const SURGE_TTL_MS = 30_000;
const SHARE_TTL_MS = 4 * 3_600_000;
const SHARE_AFTER_END_MS = 3_600_000;
const VN_OFFSET_MS = 7 * 3_600_000; // Asia/Ho_Chi_Minh has no daylight saving
const shareHashOf = (token: string) => createHash('sha256').update(`ride-share\u0000${token}`).digest('hex');
/** A quote is honoured for the points it was made for, give or take this much (GPS jitter between screens). */
const QUOTE_POINT_TOLERANCE_M = 150;

export function quoteKeyOf(serverSecret: string): Buffer {
  return createHmac('sha256', serverSecret).update('ride-quotes').digest();
}

export function createRidesService(deps: RidesServiceDeps) {
  const now = deps.now ?? Date.now;

  // Surge per cell and class, remembered for SURGE_TTL_MS: two count queries per cell every half minute on an
  // instance, not two per quote and booking.
  const surgeCache = new Map<string, { bp: Promise<number>; until: number }>();
  function surgeIn(cell: string, rideClass: RideClass, at: number): Promise<number> {
    const key = `${cell}:${rideClass}`;
    const cached = surgeCache.get(key);
    if (cached && cached.until > at) return cached.bp;
    if (surgeCache.size > 5_000) surgeCache.clear();
    const bp = Promise.all([ridesRepo.demandInCell(cell, at - 10 * 60_000), dispatchPool.countAvailableInCell(rideClass, cell)]).then(([demand, supply]) => surgeOf(demand, supply));
    surgeCache.set(key, { bp, until: at + SURGE_TTL_MS });
    bp.catch(() => surgeCache.delete(key));
    return bp;
  }

  async function termsFor(riderId: string, pickup: LatLng, dropoff: LatLng, rideClass: RideClass, at: number): Promise<QuoteTerms> {
    const cell = geohashOf(pickup).slice(0, CELL_PRECISION);
    const [route, surgeBp] = await Promise.all([deps.router.route(pickup, dropoff, rideClass, at), surgeIn(cell, rideClass, at)]);
    return { riderId, rideClass, pickup: { lat: pickup.lat, lng: pickup.lng }, dropoff: { lat: dropoff.lat, lng: dropoff.lng }, fare: fareOf(rideClass, route.distanceM, route.durationSec, surgeBp), distanceM: route.distanceM, durationSec: route.durationSec, surgeBp, expiresAt: at + QUOTE_TTL_MS };
  }

  async function quote(riderId: string, input: { pickup: LatLng; dropoff: LatLng; vehicleType?: RideClass }) {
    const at = now();
    const classes = input.vehicleType ? [input.vehicleType] : [...RIDE_CLASSES];
    const quotes = await Promise.all(classes.map((c) => termsFor(riderId, input.pickup, input.dropoff, c, at)));
    return {
      quotes: quotes.map((t) => ({ quoteId: signQuote(t, deps.quoteKey), vehicleType: t.rideClass, fare: t.fare, currency: 'VND' as const, distanceM: t.distanceM, durationSec: t.durationSec, surge: t.surgeBp / 10_000, expiresAt: new Date(t.expiresAt).toISOString() })),
    };
  }

  /** The quote a booking names, checked: ours, unaltered, this rider's, this class, these points, not expired. */
  function honouredQuote(riderId: string, input: CreateRide, at: number): QuoteTerms {
    const terms = readQuote(input.quoteId!, deps.quoteKey);
    const invalid = (why: string) => new UnprocessableError(`The quote cannot be used: ${why}`, [{ field: 'body.quoteId', message: why }]).withCode('RIDE_QUOTE_INVALID');
    if (!terms) throw invalid('not a quote of ours, or altered');
    if (terms.riderId !== riderId) throw invalid('made for another rider');
    if (terms.rideClass !== input.vehicleType) throw invalid('made for another vehicle type');
    if (distanceMeters(terms.pickup, input.pickup) > QUOTE_POINT_TOLERANCE_M || distanceMeters(terms.dropoff, input.dropoff) > QUOTE_POINT_TOLERANCE_M) throw invalid('made for other pickup or drop-off points');
    if (terms.expiresAt < at) throw new ConflictError('The quote has expired: ask for a new one').withCode('RIDE_QUOTE_EXPIRED');
    return terms;
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

  /**
   * Tries the candidates nearest first: each attempt is one transaction that re-reads the ride (a retry finds it),
   * the rider's active ride, and the driver (still ONLINE, free, fresh), then writes the claim and the ride together.
   * Returns the ride, or undefined when every candidate was taken meanwhile.
   */
  async function assign(base: RideRecord, candidates: Array<{ userId: string; lat: number; lng: number }>, at: number): Promise<RideRecord | undefined> {
    for (const candidate of candidates) {
      const [eta, card] = await Promise.all([deps.router.route(candidate, base.pickup, base.rideClass, at).catch(() => undefined), driverCard(candidate.userId)]);
      if (!card) continue;
      const result = await inTransaction(async (tx) => {
        const [existing, active, driverLoc, mayDrive] = await Promise.all([ridesRepo.get(base.id, tx), ridesRepo.activeOf(base.riderId, tx), dispatchPool.txRead(tx, candidate.userId), txMayDrive(tx, candidate.userId)]);
        if (existing) return { ride: existing };
        if (active) throw new ConflictError('You already have a ride in progress', { rideId: active }).withCode('RIDE_ACTIVE');
        if (!mayDrive) return undefined;
        const claimed = dispatchPool.txClaim(tx, driverLoc, { rideId: base.id, riderId: base.riderId, rideClass: base.rideClass, at });
        if (!claimed) return undefined;
        const ride: RideRecord = { ...base, driverId: candidate.userId, participants: [base.riderId, candidate.userId], status: 'CONFIRMED', driver: card, etaToPickupSec: eta?.durationSec ?? null, confirmedAt: at, updatedAt: at };
        ridesRepo.create(tx, ride);
        ridesRepo.setActive(tx, base.riderId, base.id, at);
        recordTransition<string, string>(tx, ridesRepo.ref(base.id), { action: 'assign', from: 'NEW', to: 'CONFIRMED', by: 'system:dispatch', at, reason: `driver ${candidate.userId}` });
        return { ride };
      });
      if (result) return result.ride;
    }
    return undefined;
  }

  // Rings from near to far, up to the search radius and then twice it (the one widening): where drivers are dense,
  // the first ring has enough of them and the search reads a few dozen documents instead of every driver in 3 km.
  const rings = [...new Set([300, 1_000, deps.searchRadiusM, deps.searchRadiusM * 2].filter((r) => r <= deps.searchRadiusM * 2))].sort((a, b) => a - b);

  /**
   * Candidates ring by ring, nearest first, each driver once: when every candidate of a ring was taken meanwhile by
   * other riders, the search goes on in the next ring (a free driver farther out is still found).
   */
  async function* candidatesFor(pickup: LatLng, rideClass: RideClass, excluded: readonly string[], at: number) {
    const seen = new Set(excluded);
    for (const radius of rings) {
      const found = (await dispatchPool.nearbyAvailable(pickup, radius, rideClass, CANDIDATES + seen.size, at)).filter((d) => !seen.has(d.userId)).slice(0, CANDIDATES);
      for (const d of found) seen.add(d.userId);
      if (found.length > 0) yield found;
    }
  }

  /**
   * Books a ride: the quote (given or made now), a hold on the wallet for WALLET rides (the quote's cap), then the
   * nearest free driver in a transaction. No driver: the ride is stored NO_DRIVER (answered 200) and the hold released.
   */
  async function create(riderId: string, input: CreateRide, idempotencyKey?: string): Promise<{ ride: ReturnType<typeof rideView>; created: boolean }> {
    const at = now();
    // Without a key a booking is new each time: the rider's one active ride (RIDE_ACTIVE) still prevents a double.
    const id = `R${createHash('sha256').update(`rides.create\u0000${riderId}\u0000${idempotencyKey ?? randomBytes(16).toString('hex')}`).digest('hex').slice(0, 24)}`;
    // The first ring's search and the price run beside the checks below (a retry or a busy rider drops them unread).
    const search = candidatesFor(input.pickup, input.vehicleType, [], at);
    const firstRing = search.next();
    const pricing = input.quoteId ? Promise.resolve().then(() => honouredQuote(riderId, input, at)) : termsFor(riderId, input.pickup, input.dropoff, input.vehicleType, at);
    for (const early of [firstRing, pricing]) early.catch(() => undefined);
    const [existing, active] = await Promise.all([ridesRepo.get(id), ridesRepo.activeOf(riderId)]);
    if (existing) return { ride: rideView(existing), created: false };
    if (active) throw new ConflictError('You already have a ride in progress', { rideId: active }).withCode('RIDE_ACTIVE');
    const terms = await pricing;
    const base: RideRecord = {
      id,
      riderId,
      driverId: null,
      participants: [riderId],
      status: 'NO_DRIVER',
      rideClass: input.vehicleType,
      pickup: { lat: input.pickup.lat, lng: input.pickup.lng, address: input.pickup.address ?? null },
      dropoff: { lat: input.dropoff.lat, lng: input.dropoff.lng, address: input.dropoff.address ?? null },
      pickupCell: geohashOf(input.pickup).slice(0, CELL_PRECISION),
      quote: { fare: terms.fare, distanceM: terms.distanceM, durationSec: terms.durationSec, surgeBp: terms.surgeBp },
      paymentMethod: input.paymentMethod,
      holdPaymentId: null,
      paymentId: null,
      fare: null,
      drivenM: null,
      cancellationFee: 0,
      driver: null,
      etaToPickupSec: null,
      excludedDriverIds: [],
      reassignments: 0,
      note: input.note ?? null,
      cancelledBy: null,
      cancelReason: null,
      cancelReasonCode: null,
      rating: null,
      createdAt: at,
      confirmedAt: null,
      arrivedAt: null,
      pickedUpAt: null,
      completedAt: null,
      endedAt: null,
      updatedAt: at,
    };
    if (input.paymentMethod === 'WALLET') {
      const holdOnce = (key: string) => deps.payments.hold({ payerId: riderId, amount: vnd(capOf(terms.fare)), purpose: 'RIDE', ref: { type: 'RIDE', id }, description: 'Ride (held until the trip ends)', idempotencyKey: key });
      let hold = await holdOnce(id);
      // A retry finds the first attempt's hold: released (it needs a new one), or held for another quote's cap (given
      // back, and a new one for this quote: a hold never covers less, or more, than the fare it secures).
      if (hold.status === 'AUTHORIZED' && hold.amount !== capOf(terms.fare)) await releaseHold({ holdPaymentId: hold.id }, 'The booking was retried at another fare');
      if (hold.status !== 'AUTHORIZED' || hold.amount !== capOf(terms.fare)) hold = await holdOnce(`${id}-${at}`);
      base.holdPaymentId = hold.id;
      // A booking that dies after this line (crash, timeout) leaves a hold nobody settles: the check releases it.
      await deps.scheduler.holdCheck(id, hold.id, deps.holdExpirySec).catch((err: unknown) => logger.warn('ride hold check not scheduled', { rideId: id, error: (err as Error).message }));
    }
    try {
      let assigned: RideRecord | undefined;
      for (let ring = await firstRing; !ring.done; ring = await search.next()) {
        assigned = await assign(base, ring.value, at);
        if (assigned) break; // before the next ring's search starts
      }
      const ride = assigned ?? (await noDriver(base, at));
      return { ride: rideView(ride), created: true };
    } catch (err) {
      // A failed booking (RIDE_ACTIVE from a double tap, a dead transaction) gives the hold back unless a ride took it.
      // Released only when the read says no ride took it: a failed read leaves it to the hold check (never frees a
      // hold a stored ride still counts on).
      const stored = base.holdPaymentId ? await ridesRepo.get(id).then((r) => (r ? 'ride' : 'none'), () => 'unknown') : 'none';
      if (base.holdPaymentId && stored === 'none') await releaseHold(base, 'The booking failed');
      if (stored === 'unknown') logger.warn('ride booking failed and its ride could not be read: the hold check decides', { rideId: id, paymentId: base.holdPaymentId });
      throw err;
    }
  }

  /**
   * The hold check (a task, RIDE_HOLD_EXPIRY_SEC after a booking's hold): not before then (a booking may still be
   * storing its ride: 'not-due', retried); no ride was stored for it, or the ride holds another payment (a retry
   * held anew), so this hold is released; a ride that ended is settled again (idempotent); a ride under way keeps it.
   */
  async function checkHold(rideId: string, paymentId: string): Promise<'released' | 'settled' | 'active' | 'not-due'> {
    const hold = await deps.payments.get(paymentId);
    if (now() - Date.parse(hold.createdAt) < deps.holdExpirySec * 1000) return 'not-due';
    const ride = await ridesRepo.get(rideId);
    if (!ride || ride.holdPaymentId !== paymentId) {
      await releaseHold({ holdPaymentId: paymentId }, ride ? 'The ride holds another payment' : 'The booking never completed');
      return 'released';
    }
    if (ACTIVE_STATUSES.includes(ride.status)) return 'active';
    await settleAndRecord(ride);
    return 'settled';
  }

  /** The timer of the ride's active status (from the trigger; one task per ride and status, retried until due). */
  async function scheduleExpiry(ride: RideRecord): Promise<void> {
    const deadline = deadlineOf(ride, deps.timeouts);
    if (deadline === null) return;
    await deps.scheduler.schedule(ride.id, ride.status, Math.max(1, Math.ceil((deadline - now()) / 1000))).catch((err: unknown) => logger.warn('ride expiry not scheduled (checked on read)', { rideId: ride.id, error: (err as Error).message }));
  }

  async function noDriver(base: RideRecord, at: number): Promise<RideRecord> {
    const ride = await inTransaction(async (tx) => {
      const existing = await ridesRepo.get(base.id, tx);
      if (existing) return existing;
      const record: RideRecord = { ...base, status: 'NO_DRIVER', endedAt: at };
      ridesRepo.create(tx, record);
      return record;
    });
    if (ride.status === 'NO_DRIVER' && ride.holdPaymentId) await releaseHold(ride, 'No driver was found');
    return ride;
  }

  const capOf = fareCapOf;

  async function releaseHold(ride: Pick<RideRecord, 'holdPaymentId'>, reason: string) {
    if (!ride.holdPaymentId) return;
    await deps.payments.release(ride.holdPaymentId, reason).catch((err: { code?: string }) => {
      if (err.code !== 'PAYMENT_TRANSITION') throw err; // released or captured already: a retry
    });
  }

  /** An administrator who is the ride's rider or driver acts as that party only (never as its administrator). */
  function rolesOf(ride: RideRecord, actor: RideViewer): RideActor[] {
    const party = ride.riderId === actor.userId || ride.driverId === actor.userId;
    return [...(ride.riderId === actor.userId ? (['rider'] as const) : []), ...(ride.driverId === actor.userId ? (['driver'] as const) : []), ...(actor.admin && !party ? (['admin'] as const) : [])];
  }

  function notOwnRide(ride: Pick<RideRecord, 'riderId' | 'driverId'>, adminId: string): void {
    if (ride.riderId === adminId || ride.driverId === adminId) throw new ForbiddenError('Administrators do not manage a ride they are the rider or driver of; another administrator does').withCode('RIDE_SELF_MANAGE');
  }

  async function visible(id: string, actor: RideViewer): Promise<RideRecord> {
    const ride = await ridesRepo.get(id);
    if (!ride || (!actor.admin && !ride.participants.includes(actor.userId))) throw new NotFoundError('No such ride');
    if (isOverdue(ride, now(), deps.timeouts)) return (await expire(id)) ?? (await ridesRepo.get(id))!;
    return ride;
  }

  /**
   * One move of the ride and its driver's state, in one transaction; effects on money follow the commit. `check`
   * sees the ride and the driver's position document after the machine's check (geofences refuse there).
   */
  async function move(id: string, action: RideAction, actor: RideViewer | 'system', change: (ride: RideRecord, at: number) => Partial<RideRecord>, driverEffect: 'release' | 'startTrip' | 'none', reason?: string | null, check?: (ride: RideRecord, driverLoc: DriverLocation | undefined, at: number) => void) {
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
      recordTransition(tx, ridesRepo.ref(id), { action, from: ride.status, to, by: actor === 'system' ? 'system:rides' : actor.userId, at, reason: reason ?? null });
      return { before: ride, after: next };
    });
  }

  /** The final fare: the tariff over what was driven (distance, time since pickup), never more than the quote's cap. */
  function finalFare(ride: RideRecord, at: number): { fare: number; drivenM: number } {
    const drivenM = ride.drivenM ?? 0;
    if (drivenM <= 0) return { fare: ride.quote.fare, drivenM: 0 };
    const seconds = ride.pickedUpAt ? Math.max(0, Math.round((at - ride.pickedUpAt) / 1000)) : ride.quote.durationSec;
    return { fare: Math.min(fareOf(ride.rideClass, drivenM, seconds, ride.quote.surgeBp), capOf(ride.quote.fare)), drivenM };
  }

  /**
   * Captures a hold for the driver; a hold captured already (a retry, the trigger after the request) is read back.
   * A hold that cannot be captured and was not (released, expired) is never recorded as the ride's payment.
   */
  async function captureOnce(holdPaymentId: string, amount: number, driverId: string | null) {
    return deps.payments.capture(holdPaymentId, { amount: vnd(amount), payeeId: driverId, feeBp: deps.commissionBp }).catch(async (err: { code?: string }) => {
      if (err.code !== 'PAYMENT_TRANSITION') throw err;
      const payment = await deps.payments.get(holdPaymentId);
      // SUCCEEDED is a captured hold; the refund states follow a capture only (a dispute refunded part of it).
      if (CAPTURED_STATUSES.includes(payment.status)) return payment;
      logger.error('ride hold not captured and not capturable: not recorded as paid', { paymentId: holdPaymentId, status: payment.status, amount });
      throw new ConflictError('The ride’s wallet hold was not captured', { paymentId: holdPaymentId, status: payment.status }).withCode('RIDE_HOLD_NOT_CAPTURED');
    });
  }

  /** Money of a finished ride, idempotent (the trigger calls it again): capture or release the hold, or record cash. */
  async function settle(ride: RideRecord): Promise<string | null> {
    if (ride.status === 'COMPLETED' && ride.fare !== null) {
      const payment = ride.holdPaymentId
        ? await captureOnce(ride.holdPaymentId, ride.fare, ride.driverId)
        : await deps.payments.charge({ payerId: ride.riderId, amount: vnd(ride.fare), purpose: 'RIDE', ref: { type: 'RIDE', id: ride.id }, method: 'CASH', payeeId: ride.driverId, feeBp: deps.commissionBp, description: 'Ride paid in cash', idempotencyKey: `${ride.id}-fare` });
      return payment.id;
    }
    if ((ride.status === 'CANCELLED' || ride.status === 'EXPIRED') && ride.cancellationFee > 0 && ride.driverId) {
      if (ride.holdPaymentId) {
        return (await captureOnce(ride.holdPaymentId, ride.cancellationFee, ride.driverId)).id;
      }
      // A cash rider pays the fee from the wallet when it holds it; otherwise it stays on the ride as owed.
      const paid = await deps.payments
        .charge({ payerId: ride.riderId, amount: vnd(ride.cancellationFee), purpose: 'RIDE', ref: { type: 'RIDE', id: ride.id }, method: 'WALLET', payeeId: ride.driverId, feeBp: deps.commissionBp, description: 'Ride cancellation fee', idempotencyKey: `${ride.id}-cancel-fee` })
        .catch((err: { code?: string }) => {
          if (err.code === 'WALLET_INSUFFICIENT_FUNDS') return undefined;
          throw err;
        });
      return paid?.id ?? null;
    }
    if (['CANCELLED', 'NO_DRIVER', 'EXPIRED'].includes(ride.status)) await releaseHold(ride, `Ride ${ride.status.toLowerCase()}`);
    return null;
  }

  async function settleAndRecord(ride: RideRecord): Promise<RideRecord> {
    const paymentId = await settle(ride);
    if (paymentId && ride.paymentId !== paymentId) {
      await ridesRepo.update(ride.id, { paymentId });
      return { ...ride, paymentId };
    }
    return ride;
  }

  /** The driver's last position if fresh (isFreshPosition: two consecutive reports within RIDE_POSITION_FRESH_SEC). */
  function positionIfFresh(loc: DriverLocation | undefined, at: number): LatLng | undefined {
    if (!loc || loc.lat === null || loc.lng === null || !isFreshPosition(loc, at, deps.geofence.positionFreshSec)) return undefined;
    return { lat: loc.lat, lng: loc.lng };
  }

  function freshPosition(loc: DriverLocation | undefined, at: number): LatLng {
    const position = positionIfFresh(loc, at);
    if (!position) throw new ConflictError('No recent position of the driver: report the position, then retry').withCode('RIDE_POSITION_STALE');
    return position;
  }

  /** `arrived` counts only within RIDE_ARRIVE_RADIUS_M of the pickup (the driver's fresh position). */
  function atPickup(ride: RideRecord, loc: DriverLocation | undefined, at: number): void {
    const distanceM = Math.round(distanceMeters(freshPosition(loc, at), ride.pickup));
    if (distanceM > deps.geofence.arriveRadiusM) throw new ConflictError('The driver is not at the pickup', { distanceM, radiusM: deps.geofence.arriveRadiusM }).withCode('RIDE_NOT_AT_PICKUP');
  }

  /** `complete` counts near the drop-off (fresh position) or after a minimum share of the quoted distance was driven. */
  function atDropoff(ride: RideRecord, loc: DriverLocation | undefined, at: number): void {
    const neededM = Math.ceil((ride.quote.distanceM * deps.geofence.completeMinDrivenBp) / 10_000);
    const drivenM = ride.drivenM ?? 0;
    if (drivenM >= neededM) return;
    // Without a fresh position only the distance driven could have justified it.
    const position = positionIfFresh(loc, at);
    const distanceM = position ? Math.round(distanceMeters(position, ride.dropoff)) : null;
    if (distanceM !== null && distanceM <= deps.geofence.completeRadiusM) return;
    throw new ConflictError('The trip is not at its drop-off', { distanceM, radiusM: deps.geofence.completeRadiusM, drivenM, neededM }).withCode('RIDE_NOT_AT_DROPOFF');
  }

  async function arrive(driverId: string, id: string) {
    return rideView((await move(id, 'arrive', { userId: driverId, admin: false }, (_r, at) => ({ arrivedAt: at }), 'none', null, atPickup)).after);
  }

  async function pickup(driverId: string, id: string) {
    return rideView((await move(id, 'pickup', { userId: driverId, admin: false }, (_r, at) => ({ pickedUpAt: at }), 'startTrip')).after);
  }

  async function complete(driverId: string, id: string) {
    const { after } = await move(id, 'complete', { userId: driverId, admin: false }, (r, at) => ({ ...finalFare(r, at), completedAt: at, endedAt: at }), 'release', null, atDropoff);
    return rideView(await settleAndRecord(after));
  }

  /**
   * An administrator ends a started trip whose driver cannot (gone, locked): at the quoted fare, or priced on what
   * was driven (as the driver's completion would). The hold is captured for the driver as usual.
   */
  async function adminComplete(admin: RideViewer, id: string, input: { fare: 'QUOTE' | 'DRIVEN'; reason: string }) {
    const { after } = await move(
      id,
      'complete',
      { userId: admin.userId, admin: true },
      (r, at) => ({ ...(input.fare === 'QUOTE' ? { fare: r.quote.fare, drivenM: r.drivenM ?? 0 } : finalFare(r, at)), completedAt: at, endedAt: at }),
      'release',
      input.reason,
      (r) => notOwnRide(r, admin.userId),
    );
    return rideView(await settleAndRecord(after));
  }

  /**
   * The driver waited RIDE_CANCEL_WAIT_SEC at the pickup and the rider never came: the ride ends CANCELLED with the
   * late-cancel fee for the driver (not sent to another driver). The driver must still be at the pickup now.
   */
  async function noShow(driverId: string, id: string) {
    const { after } = await move(
      id,
      'noShow',
      { userId: driverId, admin: false },
      (r, at) => ({ cancelledBy: 'driver', ...systemReason('riderNoShow'), cancellationFee: waitedFee(r, at), endedAt: at }),
      'release',
      'no-show',
      (r, loc, at) => {
        const waitedSec = r.arrivedAt === null ? 0 : Math.floor((at - r.arrivedAt) / 1000);
        if (waitedSec < deps.cancelWaitSec) throw new ConflictError('Wait for the rider at the pickup first', { waitSec: deps.cancelWaitSec, waitedSec }).withCode('RIDE_NO_SHOW_EARLY');
        atPickup(r, loc, at);
      },
    );
    return rideView(await settleAndRecord(after));
  }

  /**
   * The rider cancels (a fee after the grace period or once the driver arrived), or the driver does: the ride goes back
   * to the search once, excluding them, then ends NO_DRIVER.
   */
  async function cancel(actor: RideViewer, id: string, reason: string | null) {
    const ride = await visible(id, actor);
    // A party holding rides.manage cannot end its own started trip as an administrator (abort, no charge).
    if (actor.admin && ride.status === 'IN_PROGRESS') notOwnRide(ride, actor.userId);
    if (ride.driverId === actor.userId && ride.riderId !== actor.userId) return driverCancel(actor, ride, reason);
    const byAdmin = actor.admin && ride.riderId !== actor.userId;
    // A started trip is cancelled by an administrator only (abort): nobody pays, the hold goes back.
    const action: RideAction = byAdmin && ride.status === 'IN_PROGRESS' ? 'abort' : 'cancel';
    const { after } = await move(
      id,
      action,
      actor,
      (r, at) => {
        // A change of mind within the grace period is no demand: it leaves the surge's count (pickupCell cleared).
        const inGrace = !byAdmin && at - r.createdAt <= deps.cancelGraceSec * 1000;
        return { cancelledBy: byAdmin ? 'admin' : 'rider', cancelReason: reason, cancelReasonCode: null, cancellationFee: byAdmin ? 0 : waitedFee(r, at), endedAt: at, ...(inGrace ? { pickupCell: null } : {}) };
      },
      'release',
      reason,
    );
    return rideView(await settleAndRecord(after));
  }

  /** The late-cancel fee: owed once the driver came to the pickup (geofenced `arrived`) and waited RIDE_CANCEL_WAIT_SEC. */
  function waitedFee(r: RideRecord, at: number): number {
    const waited = r.status === 'ARRIVED' && r.arrivedAt !== null && at - r.arrivedAt >= deps.cancelWaitSec * 1000;
    return waited ? Math.min(deps.cancelFee, capOf(r.quote.fare)) : 0;
  }

  async function driverCancel(actor: RideViewer, ride: RideRecord, reason: string | null) {
    const at = now();
    const excluded = [...ride.excludedDriverIds, ride.driverId!];
    /** Hands the ride to `candidate` (undefined when taken meanwhile), or without one ends it NO_DRIVER. */
    const handOver = async (candidate: { userId: string } | undefined) => {
      const card = candidate ? await driverCard(candidate.userId) : null;
      if (candidate && !card) return undefined;
      return inTransaction(async (tx) => {
        const [current, leaving, arriving, mayDrive] = await Promise.all([ridesRepo.get(ride.id, tx), dispatchPool.txRead(tx, ride.driverId!), candidate ? dispatchPool.txRead(tx, candidate.userId) : undefined, candidate ? txMayDrive(tx, candidate.userId) : true]);
        if (!current) throw new NotFoundError('No such ride');
        if (current.driverId !== ride.driverId) throw new ConflictError('The ride has another driver now').withCode('RIDE_NOT_ALLOWED');
        const action: RideAction = candidate ? 'reassign' : 'abandon';
        const to = rideMachine.check(action, current.status, rolesOf(current, actor));
        const claimed = candidate && mayDrive ? dispatchPool.txClaim(tx, arriving, { rideId: ride.id, riderId: ride.riderId, rideClass: ride.rideClass, at }) : undefined;
        if (candidate && !claimed) return undefined; // taken meanwhile: the next candidate
        dispatchPool.txRelease(tx, leaving, ride.id, at);
        const next: RideRecord = candidate
          ? { ...current, status: to, driverId: candidate.userId, participants: [current.riderId, candidate.userId], driver: card, excludedDriverIds: excluded, reassignments: current.reassignments + 1, confirmedAt: at, arrivedAt: null, etaToPickupSec: null, updatedAt: at }
          : { ...current, status: to, excludedDriverIds: excluded, cancelledBy: 'driver', cancelReason: reason, cancelReasonCode: null, endedAt: at, updatedAt: at };
        if (!candidate) ridesRepo.setActive(tx, current.riderId, null, at);
        ridesRepo.save(tx, next);
        recordTransition(tx, ridesRepo.ref(ride.id), { action, from: current.status, to, by: actor.userId, at, reason: reason ?? `driver ${ride.driverId} cancelled` });
        return next;
      });
    };
    let outcome: RideRecord | undefined;
    if (ride.reassignments === 0) {
      search: for await (const ring of candidatesFor(ride.pickup, ride.rideClass, excluded, at)) {
        for (const candidate of ring) if ((outcome = await handOver(candidate))) break search;
      }
    }
    outcome ??= (await handOver(undefined))!;
    return rideView(outcome.status === 'NO_DRIVER' ? await settleAndRecord(outcome) : outcome);
  }

  const EXPIRY_REASONS: Partial<Record<RideRecord['status'], RideSystemReason>> = {
    CONFIRMED: 'driverLate',
    ARRIVED: 'startLate',
    IN_PROGRESS: 'tripOverdue',
  };

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
          const fee = r.status === 'ARRIVED' ? waitedFee(r, at) : 0;
          const code = EXPIRY_REASONS[r.status];
          return { endedAt: at, cancelledBy: 'system', ...(code ? systemReason(code) : { cancelReason: null, cancelReasonCode: null }), cancellationFee: fee };
        },
        'release',
        started ? RIDE_SYSTEM_REASONS.tripOverdue : null,
      );
      return settleAndRecord(after);
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

  async function rate(riderId: string, id: string, input: { stars: number; comment?: string | null }) {
    const at = now();
    const after = await inTransaction(async (tx) => {
      const ride = await ridesRepo.get(id, tx);
      if (!ride || ride.riderId !== riderId) throw new NotFoundError('No such ride');
      if (ride.status !== 'COMPLETED' || !ride.driverId) throw new ConflictError('Only a completed ride is rated', { status: ride.status }).withCode('RIDE_TRANSITION');
      const [given, current] = await Promise.all([ridesRepo.driverRatingOf(id, tx), ridesRepo.rating('driver', ride.driverId, tx)]);
      if (ride.rating || given) throw new ConflictError('The ride was rated already').withCode('RIDE_ALREADY_RATED');
      const rating = { stars: input.stars, comment: input.comment ?? null };
      // Kept apart from the ride document (which its driver reads): the driver sees only the tally and the comments.
      ridesRepo.recordDriverRating(tx, { rideId: id, riderId, driverId: ride.driverId, ...rating, ratedAt: at });
      ridesRepo.setRating(tx, 'driver', ride.driverId, { count: current.count + 1, sum: current.sum + input.stars }, at);
      return { ...ride, rating };
    });
    return rideView(after);
  }

  /**
   * Views of rides for a viewer: the rider (and an administrator) see the rating they gave; the driver never sees a
   * ride's stars or comment (anonymous to the rated party), not even on rides rated before ratings moved out.
   */
  async function viewsFor(viewer: RideViewer, records: RideRecord[]) {
    const ratedBy = (r: RideRecord) => r.status === 'COMPLETED' && (viewer.admin || r.riderId === viewer.userId);
    const given = await ridesRepo.driverRatingsOf(records.filter(ratedBy).map((r) => r.id));
    return records.map((r) => {
      const g = given.get(r.id);
      return { ...rideView(r), rating: !ratedBy(r) ? null : g ? { stars: g.stars, comment: g.comment } : r.rating };
    });
  }

  /** The driver rates the rider of a completed ride once; the rider's tally moves in the same transaction. */
  async function rateRider(driverId: string, id: string, input: { stars: number; comment?: string | null }) {
    const at = now();
    const record = await inTransaction(async (tx) => {
      const ride = await ridesRepo.get(id, tx);
      if (!ride || ride.driverId !== driverId) throw new NotFoundError('No such ride');
      if (ride.status !== 'COMPLETED') throw new ConflictError('Only a completed ride is rated', { status: ride.status }).withCode('RIDE_TRANSITION');
      const [given, current] = await Promise.all([ridesRepo.riderRatingGiven(id, tx), ridesRepo.rating('rider', ride.riderId, tx)]);
      if (given) throw new ConflictError('The rider was rated already').withCode('RIDE_ALREADY_RATED');
      const rating = { rideId: id, riderId: ride.riderId, driverId, stars: input.stars, comment: input.comment ?? null, ratedAt: at };
      ridesRepo.recordRiderRating(tx, rating);
      ridesRepo.setRating(tx, 'rider', ride.riderId, { count: current.count + 1, sum: current.sum + input.stars }, at);
      return rating;
    });
    return { rideId: record.rideId, stars: record.stars, comment: record.comment, ratedAt: new Date(record.ratedAt).toISOString() };
  }

  async function riderRating(riderId: string) {
    return { riderId, ...(await ridesRepo.ratingSummary('rider', riderId)) };
  }

  /** The rider's note for the driver (where to wait, what to look for) until the driver has picked them up. */
  async function updateNote(riderId: string, id: string, note: string | null) {
    const after = await inTransaction(async (tx) => {
      const ride = await ridesRepo.get(id, tx);
      if (!ride || ride.riderId !== riderId) throw new NotFoundError('No such ride');
      if (ride.status !== 'CONFIRMED' && ride.status !== 'ARRIVED') throw new ConflictError('The note can change only before the pickup', { status: ride.status }).withCode('RIDE_TRANSITION');
      const changed = { note, updatedAt: now() };
      ridesRepo.patch(tx, id, changed);
      return { ...ride, ...changed };
    });
    return rideView(after);
  }

  async function driverLocation(viewer: { userId: string; admin: boolean }, id: string) {
    const ride = await visible(id, viewer);
    if (!ride.driverId || !ACTIVE_STATUSES.includes(ride.status)) throw new ConflictError('The ride has no driver on the way', { status: ride.status }).withCode('RIDE_TRANSITION');
    const loc = await dispatchPool.location(ride.driverId);
    if (!loc || loc.lat === null || loc.lng === null) return { rideId: id, driverId: ride.driverId, location: null };
    return { rideId: id, driverId: ride.driverId, location: { lat: loc.lat, lng: loc.lng, heading: loc.heading, speedKmh: loc.speedKmh, at: new Date(loc.locatedAt ?? loc.updatedAt).toISOString() }, distanceToPickupM: Math.round(distanceMeters({ lat: loc.lat, lng: loc.lng }, ride.pickup)) };
  }

  async function current(riderId: string) {
    const id = await ridesRepo.activeOf(riderId);
    if (!id) return { ride: null };
    const ride = await visible(id, { userId: riderId, admin: false });
    return { ride: ACTIVE_STATUSES.includes(ride.status) ? rideView(ride) : null };
  }

  async function driverCurrent(driverId: string) {
    const loc = await dispatchPool.location(driverId);
    if (!loc?.currentRideId) return { ride: null };
    const ride = await visible(loc.currentRideId, { userId: driverId, admin: false }).catch(() => undefined);
    return { ride: ride && ACTIVE_STATUSES.includes(ride.status) ? rideView(ride) : null };
  }

  async function list(filter: { riderId?: string; driverId?: string }, page: Pick<PageRequest, 'limit' | 'cursor'>, caller: string) {
    const result = await ridesRepo.list(filter, { ...page, query: `rides:${filter.riderId ? 'rider' : 'driver'}`, caller });
    const views = await viewsFor({ userId: caller, admin: false }, result.items);
    return {
      items: result.items.map((r, i) => ({ ...views[i], ...(filter.driverId ? { earnings: r.status === 'COMPLETED' && r.fare !== null ? r.fare - percentOf(vnd(r.fare), deps.commissionBp) : 0 } : {}) })),
      nextCursor: result.nextCursor,
    };
  }

  async function sos(actor: { userId: string; admin: boolean }, id: string, input: { message?: string | null; location?: LatLng | null }, idempotencyKey: string) {
    const ride = await visible(id, actor);
    const sosId = `S${createHash('sha256').update(`${id}\u0000${actor.userId}\u0000${idempotencyKey}`).digest('hex').slice(0, 24)}`;
    const record: SosRecord = { id: sosId, rideId: id, raisedBy: actor.userId, role: ride.riderId === actor.userId ? 'RIDER' : 'DRIVER', message: input.message ?? null, location: input.location ?? null, status: 'OPEN', note: null, resolvedBy: null, resolvedAt: null, createdAt: now() };
    const created = await ridesRepo.createSos(record);
    return { ...sosView(record), created };
  }

  async function sosQueue(filter: { status?: 'OPEN' | 'RESOLVED' }, page: Pick<PageRequest, 'limit' | 'cursor'>, adminId: string) {
    const result = await ridesRepo.listSos(filter, { ...page, query: `rides:sos:${filter.status ?? ''}`, caller: adminId });
    return { items: result.items.map(sosView), nextCursor: result.nextCursor };
  }

  /**
   * The rider disputes a completed ride (the fare, the route, the driver's conduct), or a cancellation that charged a
   * fee, within RIDE_DISPUTE_WINDOW_DAYS of its end, once: the dispute waits in the administrators' queue.
   */
  async function dispute(riderId: string, id: string, input: { reason: string; message?: string | null }) {
    const at = now();
    const record = await inTransaction(async (tx) => {
      const [ride, existing] = await Promise.all([ridesRepo.get(id, tx), ridesRepo.disputeOf(id, tx)]);
      if (!ride || ride.riderId !== riderId) throw new NotFoundError('No such ride');
      if (existing) throw new ConflictError('The ride was disputed already', { disputeId: existing.id }).withCode('RIDE_DISPUTE_EXISTS');
      const feeCharged = (ride.status === 'CANCELLED' || ride.status === 'EXPIRED') && ride.cancellationFee > 0;
      if ((ride.status !== 'COMPLETED' && !feeCharged) || ride.endedAt === null || at - ride.endedAt > deps.disputeWindowDays * 86_400_000) {
        throw new ConflictError('Only a completed ride, or a cancellation that charged a fee, is disputed, within the dispute window', { status: ride.status, windowDays: deps.disputeWindowDays }).withCode('RIDE_DISPUTE_WINDOW');
      }
      const charged = ride.status === 'COMPLETED' ? ride.fare : ride.cancellationFee;
      const created: DisputeRecord = { id, rideId: id, riderId, driverId: ride.driverId, reason: input.reason, message: input.message ?? null, fare: charged, status: 'OPEN', outcome: null, refundAmount: null, refundPaymentId: null, note: null, resolvedBy: null, resolvedAt: null, createdAt: at };
      ridesRepo.createDispute(tx, created);
      return created;
    });
    return disputeView(record);
  }

  /**
   * An administrator (rides.manage, never the ride's rider or driver) settles a dispute once: REJECTED, or REFUNDED
   * with up to what the rider paid, given back through the payments module's refund (one refund per dispute). The
   * decision is claimed first (two administrators cannot both settle it); a refund that fails reopens the dispute.
   */
  async function resolveDispute(admin: RideViewer, id: string, input: { outcome: 'REJECTED' | 'REFUNDED'; amount?: number; note: string }) {
    const [ride, found] = await Promise.all([ridesRepo.get(id), ridesRepo.disputeOf(id)]);
    if (!ride || !found) throw new NotFoundError('No such dispute');
    notOwnRide(ride, admin.userId);
    const paid = paidFor(ride);
    const amount = input.outcome === 'REFUNDED' ? (input.amount ?? paid) : 0;
    if (input.outcome === 'REFUNDED' && (amount > paid || amount <= 0)) throw new ConflictError('A dispute refunds at most what the rider paid', { paid, amount }).withCode('RIDE_REFUND_EXCEEDS');
    const at = now();
    const decision = { status: 'RESOLVED' as const, outcome: input.outcome, refundAmount: input.outcome === 'REFUNDED' ? amount : null, refundPaymentId: input.outcome === 'REFUNDED' ? ride.paymentId : null, note: input.note, resolvedBy: admin.userId, resolvedAt: at };
    await inTransaction(async (tx) => {
      const current = await ridesRepo.disputeOf(id, tx);
      if (!current) throw new NotFoundError('No such dispute');
      if (current.status !== 'OPEN') throw new ConflictError('The dispute was resolved already', { outcome: current.outcome ?? null }).withCode('RIDE_DISPUTE_RESOLVED');
      ridesRepo.patchDispute(tx, id, decision);
    });
    if (input.outcome === 'REFUNDED') {
      try {
        await deps.payments.refund(ride.paymentId!, { amount: vnd(amount), reason: `Ride dispute: ${input.note}`, by: 'system:ride-disputes', idempotencyKey: `${id}-dispute-refund` });
      } catch (err) {
        await inTransaction(async (tx) => ridesRepo.patchDispute(tx, id, { status: 'OPEN', outcome: null, refundAmount: null, refundPaymentId: null, note: null, resolvedBy: null, resolvedAt: null }));
        throw err;
      }
    }
    return disputeView({ ...found, ...decision });
  }

  async function disputeQueue(page: Pick<PageRequest, 'limit' | 'cursor'>, adminId: string) {
    const result = await ridesRepo.listDisputes({ ...page, query: 'rides:disputes', caller: adminId });
    return { items: result.items.map(disputeView), nextCursor: result.nextCursor };
  }

  async function resolveSos(adminId: string, id: string, note: string | null) {
    const found = await ridesRepo.resolveSos(id, adminId, note, now());
    if (!found) throw new NotFoundError('No such alert');
    return sosView(found);
  }

  async function events(viewer: { userId: string; admin: boolean }, id: string) {
    await visible(id, viewer);
    return { items: await ridesRepo.events(id) };
  }

  /** Free drivers around a point for the rider's map: how many, and where within about 100 m (never who); `budget`: positions read at most. */
  async function driversNearby(center: LatLng, rideClass: RideClass, radiusM: number, budget: number) {
    const found = await dispatchPool.nearbyOnMap(center, radiusM, rideClass, 30, now(), budget);
    // Distances and order from the blurred positions: exact ones would give each driver's position back.
    return { count: found.length, vehicleType: rideClass, drivers: blurredForMap(center, found) };
  }

  /**
   * A tip from the rider's wallet to the driver of a completed ride: all of it to the driver's earnings, within the
   * payments module's tip rules (TIP_WINDOW_SEC after completion, TIP_MAX_COUNT per ride, the daily sending limit).
   */
  async function tip(riderId: string, id: string, amount: number, idempotencyKey: string) {
    const ride = await visible(id, { userId: riderId, admin: false });
    if (ride.riderId !== riderId) throw new NotFoundError('No such ride');
    if (ride.status !== 'COMPLETED' || !ride.driverId) throw new ConflictError('Only a completed ride takes a tip', { status: ride.status }).withCode('RIDE_TRANSITION');
    const endedAt = ride.completedAt ?? ride.endedAt ?? ride.updatedAt;
    const payment = await deps.payments.tip({ payerId: riderId, payeeId: ride.driverId, amount: vnd(amount), purpose: 'RIDE', ref: { type: 'RIDE', id }, endedAt, description: 'Tip for the driver', idempotencyKey: `${id}-tip-${idempotencyKey}` });
    return { rideId: id, paymentId: payment.id, amount: payment.amount, status: payment.status };
  }

  async function driverRating(driverId: string) {
    return { driverId, ...(await ridesRepo.ratingSummary('driver', driverId)) };
  }

  /** What the ride cost and who got what: the rider sees the charges, the driver and administrators the split too. */
  async function receipt(viewer: { userId: string; admin: boolean }, id: string) {
    const ride = await visible(id, viewer);
    const charged = ride.status === 'COMPLETED' ? (ride.fare ?? ride.quote.fare) : ride.status === 'CANCELLED' || ride.status === 'EXPIRED' ? ride.cancellationFee : 0;
    const commission = charged > 0 && ride.driverId ? percentOf(vnd(charged), deps.commissionBp) : 0;
    const seesSplit = viewer.admin || viewer.userId === ride.driverId;
    return {
      rideId: ride.id,
      status: ride.status,
      currency: 'VND' as const,
      vehicleType: ride.rideClass,
      paymentMethod: ride.paymentMethod,
      paymentId: ride.paymentId,
      quoted: { fare: ride.quote.fare, distanceM: ride.quote.distanceM, durationSec: ride.quote.durationSec, surge: ride.quote.surgeBp / 10_000 },
      drivenM: ride.drivenM,
      durationSec: ride.pickedUpAt && ride.completedAt ? Math.round((ride.completedAt - ride.pickedUpAt) / 1000) : null,
      fare: ride.status === 'COMPLETED' ? charged : 0,
      cancellationFee: ride.status === 'CANCELLED' || ride.status === 'EXPIRED' ? ride.cancellationFee : 0,
      total: charged,
      split: seesSplit ? { commission, driverEarnings: charged - commission } : null,
      endedAt: ride.endedAt === null ? null : new Date(ride.endedAt).toISOString(),
    };
  }

  /** The leg to draw now: the driver to the pickup while they come, else pickup to drop-off. */
  async function leg(viewer: { userId: string; admin: boolean }, id: string) {
    const ride = await visible(id, viewer);
    const coming = ride.driverId && (ride.status === 'CONFIRMED' || ride.status === 'ARRIVED') ? await dispatchPool.location(ride.driverId) : undefined;
    const from = coming && coming.lat !== null && coming.lng !== null ? { lat: coming.lat, lng: coming.lng } : ride.pickup;
    const to = coming ? ride.pickup : ride.dropoff;
    const route = await deps.router.route(from, to, ride.rideClass, now());
    return { rideId: id, leg: coming ? ('TO_PICKUP' as const) : ('TRIP' as const), from: { lat: from.lat, lng: from.lng }, to: { lat: to.lat, lng: to.lng }, ...route };
  }

  /**
   * A link for people the rider trusts: a fresh random token (the previous one stops working) that shows the trip
   * without signing in until it ends (and for an hour after), never who the rider is. Only its hash is stored.
   */
  async function share(riderId: string, id: string) {
    const ride = await visible(id, { userId: riderId, admin: false });
    if (ride.riderId !== riderId) throw new NotFoundError('No such ride');
    if (!ACTIVE_STATUSES.includes(ride.status)) throw new ConflictError('Only a ride under way is shared', { status: ride.status }).withCode('RIDE_TRANSITION');
    const token = randomBytes(24).toString('base64url');
    const expiresAt = now() + SHARE_TTL_MS;
    await ridesRepo.update(id, { share: { tokenHash: shareHashOf(token), expiresAt } });
    return { rideId: id, token, path: `/rides/shared/${token}`, expiresAt: new Date(expiresAt).toISOString() };
  }

  async function unshare(riderId: string, id: string) {
    const ride = await visible(id, { userId: riderId, admin: false });
    if (ride.riderId !== riderId) throw new NotFoundError('No such ride');
    if (ride.share) await ridesRepo.update(id, { share: null });
  }

  async function shared(token: string) {
    const ride = await ridesRepo.findByShareHash(shareHashOf(token));
    const at = now();
    const open = ride?.share && ride.share.expiresAt > at && (ride.endedAt === null || at - ride.endedAt < SHARE_AFTER_END_MS);
    if (!ride || !open) throw new NotFoundError('This trip link has expired or was turned off');
    const loc = ride.driverId && ACTIVE_STATUSES.includes(ride.status) ? await dispatchPool.location(ride.driverId) : undefined;
    return {
      status: ride.status,
      vehicleType: ride.rideClass,
      pickup: ride.pickup,
      dropoff: ride.dropoff,
      driver: ride.driver ? { name: ride.driver.name, vehicle: ride.driver.vehicle } : null,
      driverLocation: loc && loc.lat !== null && loc.lng !== null ? { lat: loc.lat, lng: loc.lng, heading: loc.heading, at: new Date(loc.locatedAt ?? loc.updatedAt).toISOString() } : null,
      etaToPickupSec: ride.status === 'CONFIRMED' ? ride.etaToPickupSec : null,
      updatedAt: new Date(ride.updatedAt).toISOString(),
    };
  }

  /** The rider and the current driver's conversation about the ride (one per driver; closed when the ride ends). */
  async function chat(viewer: { userId: string; admin: boolean }, id: string) {
    const ride = await visible(id, { ...viewer, admin: false });
    if (!ride.driverId || !ACTIVE_STATUSES.includes(ride.status)) throw new ConflictError('Chat is open while a driver is on the ride', { status: ride.status }).withCode('RIDE_TRANSITION');
    if (viewer.userId !== ride.riderId && viewer.userId !== ride.driverId) throw new NotFoundError('No such ride');
    const conversationId = await openContextConversation(rideChatContext(ride.id, ride.driverId), [
      { userId: ride.riderId, surface: 'CON' },
      { userId: ride.driverId, surface: 'DRV' },
    ]);
    return { rideId: id, conversationId };
  }

  /** A driver's completed rides per day (Vietnam time) over the last `days`: count, fares, my earnings. */
  async function driverSummary(driverId: string, days: number) {
    const at = now();
    const dayOf = (t: number) => new Date(t + VN_OFFSET_MS).toISOString().slice(0, 10);
    const todayStart = Date.parse(`${dayOf(at)}T00:00:00Z`) - VN_OFFSET_MS;
    const from = todayStart - (days - 1) * 86_400_000;
    const rides = await ridesRepo.completedBy(driverId, from);
    const byDay = new Map<string, { date: string; rides: number; fares: number; earnings: number; drivenM: number }>();
    for (let d = 0; d < days; d++) {
      const date = dayOf(from + d * 86_400_000);
      byDay.set(date, { date, rides: 0, fares: 0, earnings: 0, drivenM: 0 });
    }
    for (const r of rides) {
      const day = byDay.get(dayOf(r.completedAt!));
      if (!day || r.fare === null) continue;
      day.rides += 1;
      day.fares += r.fare;
      day.earnings += r.fare - percentOf(vnd(r.fare), deps.commissionBp);
      day.drivenM += r.drivenM ?? 0;
    }
    const list = [...byDay.values()];
    const sum = (k: 'rides' | 'fares' | 'earnings' | 'drivenM') => list.reduce((a, d) => a + d[k], 0);
    return { driverId, currency: 'VND' as const, from: new Date(from).toISOString(), days: list, totals: { rides: sum('rides'), fares: sum('fares'), earnings: sum('earnings'), drivenM: sum('drivenM') } };
  }

  /** Ratings riders gave me, newest first: stars, comment and the day (Vietnam time), never the ride or the rider. */
  async function driverRatings(driverId: string, page: Pick<PageRequest, 'limit' | 'cursor'>) {
    const result = await ridesRepo.ratedFor(driverId, { ...page, query: 'rides:ratings', caller: driverId });
    return { items: result.items.map((r) => ({ stars: r.stars, comment: r.comment, ratedOn: new Date(r.ratedAt + VN_OFFSET_MS).toISOString().slice(0, 10) })), nextCursor: result.nextCursor };
  }

  /** Rides by status booked in the last `hours`, rides under way and free drivers by class now (ADMIN dashboard). */
  async function adminStats(hours: number) {
    const since = now() - hours * 3_600_000;
    const [byStatus, free] = await Promise.all([
      Promise.all(RIDE_STATUSES.map(async (status) => [status, await ridesRepo.countSince(status, since)] as const)),
      Promise.all(RIDE_CLASSES.map(async (c) => [c, await dispatchPool.countAvailable(c)] as const)),
    ]);
    const counts = Object.fromEntries(byStatus) as Record<(typeof RIDE_STATUSES)[number], number>;
    const booked = byStatus.reduce((a, [, n]) => a + n, 0);
    return {
      since: new Date(since).toISOString(),
      booked,
      byStatus: counts,
      matchRate: booked === 0 ? null : Math.round(((booked - counts.NO_DRIVER) / booked) * 1000) / 1000,
      freeDrivers: Object.fromEntries(free) as Record<RideClass, number>,
    };
  }

  async function adminList(filter: { status?: RideRecord['status']; riderId?: string; driverId?: string }, page: Pick<PageRequest, 'limit' | 'cursor'>, adminId: string) {
    const result = await ridesRepo.list(filter, { ...page, query: `rides:admin:${JSON.stringify(filter)}`, caller: adminId });
    return { items: result.items.map(rideView), nextCursor: result.nextCursor };
  }

  return { checkHold, noShow, resolveDispute, adminComplete, dispute, disputeQueue, quote, create, arrive, pickup, complete, cancel, rate, rateRider, riderRating, updateNote, driverLocation, current, driverCurrent, list, sos, sosQueue, resolveSos, events, driversNearby, tip, driverRating, adminList, expireIfDue, scheduleExpiry, settleAndRecord, receipt, leg, share, unshare, shared, chat, driverSummary, driverRatings, adminStats, get: async (viewer: RideViewer, id: string) => (await viewsFor(viewer, [await visible(id, viewer)]))[0] };
}

export type RidesService = ReturnType<typeof createRidesService>;
