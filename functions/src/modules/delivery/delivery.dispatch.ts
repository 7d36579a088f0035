import { inTransaction } from '../../platform/core/firebase/firebase';
import { transition, type TransitionResult } from '../../platform/kits/state-machine/state-machine';
import { dispatchPool } from '../driver';
import { accounts } from '../users';
import { ledger } from '../wallet';
import { noSuchDelivery, type DeliveryCore } from './delivery.context';
import { assignmentOf, dispatchDeadline, NO_DRIVER_BY, noDriverDeadline, pickupDeadline } from './delivery.deadlines';
import { deliveryMachine, type DeliveryAction, type DeliveryStatus } from './delivery.machine';
import type { DeliveryRecord, DriverCard } from './delivery.model';
import type { DriverState } from './delivery.ports';
import { deliveryRepo } from './delivery.repo';

// The search for a driver: the nearest free drivers with the DELIVERY capability (never the sender), each tried in
// one move CREATED → DRIVER_ASSIGNED whose transaction claims them through the job pool (two parcels, or a parcel and
// a ride, never get one driver). Nobody free: the search is tried again by a task every DELIVERY_DISPATCH_RETRY_SEC
// until the no-driver window ends.

/** The driver was taken meanwhile (or may not drive): thrown inside the move to drop it, and the next one is tried. */
class DriverTaken extends Error {}

async function driverCard(driverId: string): Promise<DriverCard> {
  const [account, profile] = await Promise.all([accounts.get(driverId), dispatchPool.profile(driverId)]);
  const vehicle = profile?.vehicle ?? null;
  return { name: account?.name ?? 'Driver', phone: account?.phone ?? null, vehicle: vehicle ? { type: vehicle.type, plate: vehicle.plate } : null };
}

export function createDeliveryDispatch({ deps, now, schedulers }: DeliveryCore, expire: (id: string) => Promise<unknown>) {
  const { jobs, settings } = deps;

  /** One attempt to give the parcel to `driverId`; undefined when the driver was taken meanwhile. */
  async function assignTo(id: string, driverId: string, at: number): Promise<TransitionResult<DeliveryRecord, DeliveryStatus, DeliveryAction> | undefined> {
    let loc: DriverState | undefined;
    const store = deliveryRepo.store(id, (tx, next) => {
      if (!jobs.txClaim(tx, loc, { kind: 'DELIVERY', jobId: id, customerId: next.senderId, capability: 'DELIVERY', at })) throw new DriverTaken();
    });
    try {
      return await transition(deliveryMachine, store, {
        action: 'assign',
        by: NO_DRIVER_BY,
        now: at,
        reason: `driver ${driverId}`,
        missing: noSuchDelivery,
        rolesOf: () => ['SYSTEM'],
        // The driver's card beside the transaction (nothing to lock there): no round trip of its own.
        beside: () => driverCard(driverId),
        async read(tx, d, cardRead) {
          // Cash the driver collects for the sender (and at most a cash fee's commission) is owed from their earnings.
          const owed = d.codVnd + (d.payment.method === 'CASH' ? d.feeVnd : 0);
          const [state, mayOwe, card] = await Promise.all([
            jobs.txRead(tx, driverId),
            ledger.txMayOweCash(tx, driverId, owed, settings.cashDebtLimitVnd),
            cardRead,
          ]);
          loc = mayOwe ? state : undefined;
          return { card };
        },
        // A driver who left it meanwhile (a give-up racing this search) is not given it back.
        guard: (d) => {
          if ((d.formerDriverIds ?? []).includes(driverId)) throw new DriverTaken();
        },
        apply: (d, to, { card }) => ({
          ...d,
          status: to,
          driverId,
          driver: card,
          assignedAt: at,
          pickupBy: at + settings.pickupWindowMin * 60_000,
          nextDispatchAt: null,
          updatedAt: at,
        }),
        // Past the window the parcel is NO_DRIVER first, and the assignment is dropped.
        deadline: noDriverDeadline.expiry(),
        tolerant: 'refused',
      });
    } catch (err) {
      if (err instanceof DriverTaken) return undefined;
      throw err;
    }
  }

  /**
   * The nearest free drivers, tried nearest first. Returns the parcel once it left CREATED (assigned here, or
   * meanwhile: cancelled, expired), undefined when every candidate was taken or none was found.
   */
  async function dispatchOnce(d: DeliveryRecord): Promise<DeliveryRecord | undefined> {
    // Never dated at the placing's own millisecond: the history reads its moves in time order.
    const at = Math.max(now(), d.updatedAt + 1);
    // Never the sender, nor a driver who gave it up (the pool leaves them out: they cost no candidate).
    const exclude = [d.senderId, ...(d.formerDriverIds ?? [])];
    const candidates = await jobs.nearbyAvailable(d.pickup, settings.searchRadiusM, 'DELIVERY', settings.candidates, at, { exclude });
    for (const candidate of candidates) {
      const result = await assignTo(d.id, candidate.userId, at);
      if (!result) continue;
      if (result.changed && result.after.status === 'DRIVER_ASSIGNED')
        await pickupDeadline.arm(schedulers.pickup, result.after, at, assignmentOf(result.after));
      if (result.after.status !== 'CREATED') return result.after;
    }
    return undefined;
  }

  /** The next search, DELIVERY_DISPATCH_RETRY_SEC from now (never past the window: the no-driver timer ends it then). */
  async function scheduleRetry(id: string, at: number): Promise<void> {
    const next = await inTransaction(async (tx) => {
      const d = await deliveryRepo.get(id, tx);
      if (!d || d.status !== 'CREATED') return undefined;
      const nextDispatchAt = at + settings.dispatchRetrySec * 1_000;
      if (nextDispatchAt >= d.assignBy) return undefined;
      const dispatchAttempts = d.dispatchAttempts + 1;
      deliveryRepo.patch(tx, id, { nextDispatchAt, dispatchAttempts });
      return { ...d, nextDispatchAt, dispatchAttempts };
    });
    if (next) await dispatchDeadline.arm(schedulers.dispatch, next, at, String(next.dispatchAttempts));
  }

  /** A search that found nobody is followed by the next one. */
  async function dispatchOrRetry(d: DeliveryRecord): Promise<DeliveryRecord | undefined> {
    const moved = await dispatchOnce(d);
    if (!moved) await scheduleRetry(d.id, now());
    return moved;
  }

  /** The retry task's work: a parcel still CREATED is searched for again, or ends NO_DRIVER past its window. */
  async function redispatch(id: string): Promise<void> {
    const at = now();
    const d = await deliveryRepo.get(id);
    if (!d || d.status !== 'CREATED') return;
    if (noDriverDeadline.isDue(d, at)) {
      await expire(id);
      return;
    }
    await dispatchOrRetry(d);
  }

  /** The `deliveryDispatch` task: waits for the attempt's time (or asks the queue to retry), then searches. */
  const runDispatch = (id: string) => dispatchDeadline.run(id, { load: (key) => deliveryRepo.get(key), expire: redispatch, now });

  return { dispatchOnce, dispatchOrRetry, redispatch, runDispatch };
}

export type DeliveryDispatch = ReturnType<typeof createDeliveryDispatch>;
