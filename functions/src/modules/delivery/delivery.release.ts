import { transition } from '../../platform/kits/state-machine/state-machine';
import { formerAfterLeaving, giveUpJob, ReleaseNotDue, releaseUnlessNotDue, runPickupTimeout as runPickupTask } from '../driver';
import { noSuchDelivery, rolesOf, type DeliveryCore } from './delivery.context';
import { dispatchDeadline, noDriverDeadline, PICKUP_TIMEOUT_BY, pickupDeadline } from './delivery.deadlines';
import { deliveryMachine } from './delivery.machine';
import type { DeliveryRecord } from './delivery.model';
import type { DriverState } from './delivery.ports';
import { deliveryRepo } from './delivery.repo';

// A driver leaving a parcel before pickup: their own give-up, or the pickup timer's release (the same move by
// SYSTEM). One transition DRIVER_ASSIGNED → CREATED: the driver freed in the job pool in the same transaction, no
// longer the parcel's driver (404 to them from then), remembered so the search never offers it to them again, a new
// no-driver window, and a search due at once (its task armed after the commit). A give-up of their own is counted and
// costs them JOB_GIVE_UP_COOLDOWN_MIN without job offers. What orders share (who left, the retry's 409, the pickup
// task) is the driver module's.

export function createDeliveryRelease({ deps, now, schedulers }: DeliveryCore) {
  const { jobs, settings } = deps;

  /** The move; `driverId` undefined: the pickup timer (tolerant, and only once the window passed). */
  async function leave(id: string, driverId: string | undefined, reason: string | null) {
    const at = now();
    let loc: DriverState | undefined;
    const store = deliveryRepo.store(id, (tx, _next, previous) => {
      const gaveUp = driverId === undefined ? undefined : { cooldownUntil: at + settings.giveUpCooldownMin * 60_000 };
      if (previous.driverId) jobs.txRelease(tx, loc, id, at, gaveUp);
    });
    const result = await transition(deliveryMachine, store, {
      action: 'giveUp',
      by: driverId ?? PICKUP_TIMEOUT_BY,
      now: at,
      reason,
      missing: noSuchDelivery,
      visible: (d) => driverId === undefined || d.driverId === driverId,
      rolesOf: (d) => (driverId === undefined ? ['SYSTEM'] : rolesOf(d, { userId: driverId, admin: false })),
      async read(tx, d) {
        loc = d.driverId ? await jobs.txRead(tx, d.driverId) : undefined;
      },
      guard(d) {
        if (driverId === undefined && deliveryMachine.accepts('giveUp', d.status) && !pickupDeadline.isDue(d, at)) throw new ReleaseNotDue();
      },
      apply: (d, to) => ({
        ...d,
        status: to,
        driverId: null,
        driver: null,
        assignedAt: null,
        pickupBy: null,
        formerDriverIds: formerAfterLeaving(d, settings.formerDriversMax),
        releases: (d.releases ?? 0) + 1,
        // A new window to find another driver, and the first search at once.
        assignBy: at + settings.noDriverWindowSec * 1_000,
        nextDispatchAt: at,
        dispatchAttempts: d.dispatchAttempts + 1,
        updatedAt: at,
      }),
      tolerant: driverId === undefined ? 'refused' : undefined,
    });
    if (result.changed) {
      const after = result.after;
      await noDriverDeadline.arm(schedulers.noDriver, after, at, `r${after.releases ?? 0}`);
      await dispatchDeadline.arm(schedulers.dispatch, after, at, String(after.dispatchAttempts));
    }
    return result.after;
  }

  /**
   * The assigned driver gives the parcel up before pickup. A retry by the same driver is 409 DELIVERY_DRIVER_RELEASED
   * (no second move); anyone else is 404.
   */
  async function giveUp(driverId: string, id: string, reason: string | null): Promise<DeliveryRecord> {
    return giveUpJob({
      userId: driverId,
      load: () => deliveryRepo.get(id),
      leave: () => leave(id, driverId, reason),
      code: 'DELIVERY_DRIVER_RELEASED',
      noun: 'parcel',
    });
  }

  /** The pickup window's release (the task, or a lazy read): never before it is due, never after pickup. */
  const release = (id: string): Promise<DeliveryRecord | undefined> => releaseUnlessNotDue(leave(id, undefined, 'not picked up in time'));

  /** The `deliveryPickupTimeout` task: another assignment's task does nothing; else waits for the due time, then releases. */
  const runPickupTimeout = (id: string, assignment?: string) =>
    runPickupTask(pickupDeadline, id, assignment, { load: (key) => deliveryRepo.get(key), release, now });

  /** The lazy check of a read: a driver past the pickup window is released first. */
  async function upToDate(id: string): Promise<void> {
    const found = await deliveryRepo.get(id);
    if (found && pickupDeadline.isDue(found, now())) await release(id);
  }

  return { giveUp, release, runPickupTimeout, upToDate };
}

export type DeliveryRelease = ReturnType<typeof createDeliveryRelease>;
