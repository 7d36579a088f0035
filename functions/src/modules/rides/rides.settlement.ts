import { ConflictError, NotFoundError } from '../../platform/core/errors/app-error';
import { inTransaction } from '../../platform/core/firebase/firebase';
import type { PageRequest } from '../../platform/kits/firestore/paginate';
import { logger } from '../../platform/core/logging/logger';
import { percentOf, subtractVnd, vnd, type Vnd } from '../../platform/kits/money/money';
import { iso, isoOrNull } from '../../platform/kits/time/time';
import { ACTIVE_STATUSES, type RideRecord } from './rides.model';
import { ridesRepo, type DisputeRecord } from './rides.repo';
import { notOwnRide, type RideViewer, type RidesCore, type VisibleRide } from './rides.context';

// A ride's money: the wallet hold captured or released, cash recorded, the hold check, tips, the receipt, disputes.

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
const paidFor = (r: RideRecord) =>
  !r.paymentId ? 0 : r.status === 'COMPLETED' ? (r.fare ?? 0) : r.status === 'CANCELLED' || r.status === 'EXPIRED' ? r.cancellationFee : 0;

/** `visible`: the lifecycle's read of a ride (bound late: the lifecycle settles through this part). */
export function createRideSettlement({ deps, now }: RidesCore, visible: VisibleRide) {
  /** The driver's share of a fare: the fare less the platform's commission. */
  const earningsOf = (fare: number): Vnd => subtractVnd(vnd(fare), percentOf(vnd(fare), deps.commissionBp));

  async function releaseHold(ride: Pick<RideRecord, 'holdPaymentId'>, reason: string) {
    if (!ride.holdPaymentId) return;
    await deps.payments.release(ride.holdPaymentId, reason).catch((err: { code?: string }) => {
      if (err.code !== 'PAYMENT_TRANSITION') throw err; // released or captured already: a retry
    });
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
      throw new ConflictError('The ride’s wallet hold was not captured', { paymentId: holdPaymentId, status: payment.status }).withCode(
        'RIDE_HOLD_NOT_CAPTURED',
      );
    });
  }

  /** Money of a finished ride, idempotent (the trigger calls it again): capture or release the hold, or record cash. */
  async function settle(ride: RideRecord): Promise<string | null> {
    if (ride.status === 'COMPLETED' && ride.fare !== null) {
      const payment = ride.holdPaymentId
        ? await captureOnce(ride.holdPaymentId, ride.fare, ride.driverId)
        : await deps.payments.charge({
            payerId: ride.riderId,
            amount: vnd(ride.fare),
            purpose: 'RIDE',
            ref: { type: 'RIDE', id: ride.id },
            method: 'CASH',
            payeeId: ride.driverId,
            feeBp: deps.commissionBp,
            description: 'Ride paid in cash',
            idempotencyKey: `${ride.id}-fare`,
          });
      return payment.id;
    }
    if ((ride.status === 'CANCELLED' || ride.status === 'EXPIRED') && ride.cancellationFee > 0 && ride.driverId) {
      if (ride.holdPaymentId) {
        return (await captureOnce(ride.holdPaymentId, ride.cancellationFee, ride.driverId)).id;
      }
      // A cash rider pays the fee from the wallet when it holds it; otherwise it stays on the ride as owed.
      const paid = await deps.payments
        .charge({
          payerId: ride.riderId,
          amount: vnd(ride.cancellationFee),
          purpose: 'RIDE',
          ref: { type: 'RIDE', id: ride.id },
          method: 'WALLET',
          payeeId: ride.driverId,
          feeBp: deps.commissionBp,
          description: 'Ride cancellation fee',
          idempotencyKey: `${ride.id}-cancel-fee`,
        })
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

  /**
   * A tip from the rider's wallet to the driver of a completed ride: all of it to the driver's earnings, within the
   * payments module's tip rules (TIP_WINDOW_SEC after completion, TIP_MAX_COUNT per ride, the daily sending limit).
   */
  async function tip(riderId: string, id: string, amount: number, idempotencyKey: string) {
    const ride = await visible(id, { userId: riderId, admin: false });
    if (ride.riderId !== riderId) throw new NotFoundError('No such ride');
    if (ride.status !== 'COMPLETED' || !ride.driverId)
      throw new ConflictError('Only a completed ride takes a tip', { status: ride.status }).withCode('RIDE_TRANSITION');
    const endedAt = ride.completedAt ?? ride.endedAt ?? ride.updatedAt;
    const payment = await deps.payments.tip({
      payerId: riderId,
      payeeId: ride.driverId,
      amount: vnd(amount),
      purpose: 'RIDE',
      ref: { type: 'RIDE', id },
      endedAt,
      description: 'Tip for the driver',
      idempotencyKey: `${id}-tip-${idempotencyKey}`,
    });
    return { rideId: id, paymentId: payment.id, amount: payment.amount, status: payment.status };
  }

  /** What the ride cost and who got what: the rider sees the charges, the driver and administrators the split too. */
  async function receipt(viewer: { userId: string; admin: boolean }, id: string) {
    const ride = await visible(id, viewer);
    const charged =
      ride.status === 'COMPLETED' ? (ride.fare ?? ride.quote.fare) : ride.status === 'CANCELLED' || ride.status === 'EXPIRED' ? ride.cancellationFee : 0;
    const commission = charged > 0 && ride.driverId ? percentOf(vnd(charged), deps.commissionBp) : vnd(0);
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
      split: seesSplit ? { commission, driverEarnings: subtractVnd(vnd(charged), commission) } : null,
      endedAt: ride.endedAt === null ? null : iso(ride.endedAt),
    };
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
        throw new ConflictError('Only a completed ride, or a cancellation that charged a fee, is disputed, within the dispute window', {
          status: ride.status,
          windowDays: deps.disputeWindowDays,
        }).withCode('RIDE_DISPUTE_WINDOW');
      }
      const charged = ride.status === 'COMPLETED' ? ride.fare : ride.cancellationFee;
      const created: DisputeRecord = {
        id,
        rideId: id,
        riderId,
        driverId: ride.driverId,
        reason: input.reason,
        message: input.message ?? null,
        fare: charged,
        status: 'OPEN',
        outcome: null,
        refundAmount: null,
        refundPaymentId: null,
        note: null,
        resolvedBy: null,
        resolvedAt: null,
        createdAt: at,
      };
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
    if (input.outcome === 'REFUNDED' && (amount > paid || amount <= 0))
      throw new ConflictError('A dispute refunds at most what the rider paid', { paid, amount }).withCode('RIDE_REFUND_EXCEEDS');
    const at = now();
    const decision = {
      status: 'RESOLVED' as const,
      outcome: input.outcome,
      refundAmount: input.outcome === 'REFUNDED' ? amount : null,
      refundPaymentId: input.outcome === 'REFUNDED' ? ride.paymentId : null,
      note: input.note,
      resolvedBy: admin.userId,
      resolvedAt: at,
    };
    await inTransaction(async (tx) => {
      const current = await ridesRepo.disputeOf(id, tx);
      if (!current) throw new NotFoundError('No such dispute');
      if (current.status !== 'OPEN')
        throw new ConflictError('The dispute was resolved already', { outcome: current.outcome ?? null }).withCode('RIDE_DISPUTE_RESOLVED');
      ridesRepo.patchDispute(tx, id, decision);
    });
    if (input.outcome === 'REFUNDED') {
      try {
        await deps.payments.refund(ride.paymentId!, {
          amount: vnd(amount),
          reason: `Ride dispute: ${input.note}`,
          by: 'system:ride-disputes',
          idempotencyKey: `${id}-dispute-refund`,
        });
      } catch (err) {
        await inTransaction(async (tx) =>
          ridesRepo.patchDispute(tx, id, {
            status: 'OPEN',
            outcome: null,
            refundAmount: null,
            refundPaymentId: null,
            note: null,
            resolvedBy: null,
            resolvedAt: null,
          }),
        );
        throw err;
      }
    }
    return disputeView({ ...found, ...decision });
  }

  async function disputeQueue(page: Pick<PageRequest, 'limit' | 'cursor'>, adminId: string) {
    const result = await ridesRepo.listDisputes({ ...page, query: 'rides:disputes', caller: adminId });
    return { items: result.items.map(disputeView), nextCursor: result.nextCursor };
  }

  return { releaseHold, settle, settleAndRecord, checkHold, tip, receipt, dispute, resolveDispute, disputeQueue, earningsOf };
}

export type RideSettlement = ReturnType<typeof createRideSettlement>;
