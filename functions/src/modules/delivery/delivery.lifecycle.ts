import { ConflictError, NotFoundError, UnprocessableError } from '../../platform/core/errors/app-error';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { transition } from '../../platform/kits/state-machine/state-machine';
import { audienceOf, noSuchDelivery, notOwnDelivery, rolesOf, type DeliveryCore, type DeliveryViewer } from './delivery.context';
import { NO_DRIVER_BY, noDriverDeadline } from './delivery.deadlines';
import { deliveryMachine, type DeliveryAction } from './delivery.machine';
import type { DeliveryRecord } from './delivery.model';
import {
  checkHandoverCode,
  codeProof,
  handoverCodeError,
  handoverTooFarError,
  proveHandover,
  type HandoverCodeCheck,
  type PhotoHandoverCheck,
} from '../../platform/kits/handover/handover';
import { LOCATION_STALE_MS } from '../driver';
import type { DriverState } from './delivery.ports';
import { deliveryRepo } from './delivery.repo';
import type { DeliverySettlement } from './delivery.settlement';
import type { DeliveryAudience } from './delivery.views';

// The parcel's moves after placing, each one transaction through the state-machine kit (the driver's job-pool state
// written in the same transaction): pickup and delivery proved by a code or a photo, cancellation by the sender or an
// administrator, and the no-driver expiry (its timer, or the lazy check of a read or a move). Money follows the move.

/** A hand-over proof as the driver sends it: the code the other person reads out, or one of the driver's photos. */
export interface HandoverInput {
  code?: string;
  photoId?: string;
}

const CODE_ERRORS = { wrong: 'DELIVERY_CODE_WRONG', locked: 'DELIVERY_CODE_LOCKED' } as const;
const LEG = { pickup: 'pickup', deliver: 'dropoff' } as const;

export function createDeliveryLifecycle({ deps, now }: DeliveryCore, settlement: Pick<DeliverySettlement, 'settleAfterMove'>) {
  const { jobs, photos, settings } = deps;

  /** The no-driver expiry, tolerant (a parcel taken or cancelled meanwhile stays so, a task come early waits), then its money. */
  async function expire(id: string): Promise<DeliveryRecord | undefined> {
    const at = now();
    const result = await transition(deliveryMachine, deliveryRepo.store(id), {
      action: 'expire',
      by: NO_DRIVER_BY,
      now: at,
      missing: noSuchDelivery,
      rolesOf: () => ['SYSTEM'],
      apply: (d, to) => ({ ...d, status: to, nextDispatchAt: null, endedAt: at, updatedAt: at }),
      deadline: noDriverDeadline.expiry(),
      tolerant: 'refused',
    }).catch((err: unknown) => {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    });
    if (!result) return undefined;
    return result.changed ? settlement.settleAfterMove(result.after) : result.after;
  }

  /** The parcel and how `viewer` reads it (404 for anyone else), expired first when past its window. */
  async function visible(id: string, viewer: DeliveryViewer): Promise<{ delivery: DeliveryRecord; audience: DeliveryAudience }> {
    const found = await deliveryRepo.get(id);
    const audience = found ? audienceOf(found, viewer) : undefined;
    if (!found || !audience) throw noSuchDelivery();
    if (!noDriverDeadline.isDue(found, now())) return { delivery: found, audience };
    return { delivery: (await expire(id)) ?? found, audience };
  }

  /**
   * A code is checked in a transaction of its own before the move, so that a wrong one counts (and the last allowed
   * wrong one locks code-proof) even though the move is refused. The status and the actor are checked first: a
   * refused move never costs an attempt.
   */
  async function countCode(id: string, viewer: DeliveryViewer, action: 'pickup' | 'deliver', code: string, at: number): Promise<void> {
    const leg = LEG[action];
    const check = await inTransaction(async (tx): Promise<HandoverCodeCheck> => {
      const d = await deliveryRepo.get(id, tx);
      if (!d || d.driverId !== viewer.userId) throw noSuchDelivery();
      deliveryMachine.check(action, d.status, rolesOf(d, viewer));
      const checked = checkHandoverCode(d.codes[leg], code, at);
      if (checked.outcome !== 'MATCH' && checked.state !== d.codes[leg]) deliveryRepo.patch(tx, id, { codes: { ...d.codes, [leg]: checked.state } });
      return checked;
    });
    const refused = handoverCodeError(check, CODE_ERRORS);
    if (refused) throw refused;
  }

  /**
   * The driver's pickup (sharing their position with the sender from now) or delivery (freeing them; money settles).
   * A photo proves it only near the place (the handover kit's `proveHandover`: the pickup, or the drop-off).
   */
  async function handOver(driverId: string, id: string, action: 'pickup' | 'deliver', proof: HandoverInput): Promise<DeliveryRecord> {
    const viewer: DeliveryViewer = { userId: driverId, admin: false };
    const leg = LEG[action];
    const at = now();
    if (proof.code !== undefined) await countCode(id, viewer, action, proof.code, at);
    let loc: DriverState | undefined;
    let photo: PhotoHandoverCheck | undefined;
    const store = deliveryRepo.store(id, (tx) => {
      if (action === 'pickup') jobs.txShareWithCustomer(tx, loc, id, at);
      else jobs.txRelease(tx, loc, id, at);
    });
    const { after } = await transition(deliveryMachine, store, {
      action,
      by: driverId,
      now: at,
      missing: noSuchDelivery,
      visible: (d) => d.driverId === driverId,
      rolesOf: (d) => rolesOf(d, viewer),
      async read(tx, d) {
        loc = await jobs.txRead(tx, driverId);
        if (proof.photoId === undefined) return;
        const place = action === 'pickup' ? d.pickup : d.dropoff;
        const since = (action === 'pickup' ? d.assignedAt : d.pickedUpAt) ?? 0;
        const input = { courierId: driverId, photoId: proof.photoId, place: { lat: place.lat, lng: place.lng }, radiusM: settings.handoverRadiusM, since };
        photo = await proveHandover({ photos, positions: jobs.lastPosition }, { ...input, maxAgeMs: LOCATION_STALE_MS, at, tx });
      },
      guard(d) {
        if (!deliveryMachine.accepts(action, d.status)) return; // the machine's 409 comes first
        if (photo?.outcome === 'NOT_YOURS')
          throw new UnprocessableError('The photo is not one of your READY image uploads taken for this handover', [
            { field: 'body.photoId', message: 'not one of your READY image uploads taken since the assignment (pickup) or the pickup (drop-off)' },
          ]).withCode('DELIVERY_PHOTO_INVALID');
        const tooFar = photo && handoverTooFarError(photo, 'DELIVERY_HANDOVER_TOO_FAR');
        if (tooFar) throw tooFar;
        if (proof.code !== undefined) {
          const refused = handoverCodeError(checkHandoverCode(d.codes[leg], proof.code, at), CODE_ERRORS);
          if (refused) throw refused;
        }
      },
      apply: (d, to) => {
        const proved = photo?.outcome === 'PROVED' ? photo.proof : codeProof(driverId, at);
        return action === 'pickup'
          ? { ...d, status: to, pickupProof: proved, pickedUpAt: at, updatedAt: at }
          : { ...d, status: to, deliveryProof: proved, deliveredAt: at, endedAt: at, updatedAt: at };
      },
    });
    return action === 'deliver' ? settlement.settleAfterMove(after) : after;
  }

  /** A cancellation (the driver freed in its transaction), then its money: a fee once a driver was assigned, or the hold back. */
  async function end(id: string, viewer: DeliveryViewer, action: Extract<DeliveryAction, 'cancel' | 'adminCancel'>, reason: string | null) {
    const at = now();
    let loc: DriverState | undefined;
    const store = deliveryRepo.store(id, (tx, _next, previous) => {
      if (previous.driverId) jobs.txRelease(tx, loc, id, at);
    });
    const { after } = await transition(deliveryMachine, store, {
      action,
      by: viewer.userId,
      now: at,
      reason,
      missing: noSuchDelivery,
      visible: (d) => audienceOf(d, viewer) !== undefined,
      rolesOf: (d) => rolesOf(d, viewer),
      async read(tx, d) {
        if (action === 'adminCancel') notOwnDelivery(d, viewer.userId);
        loc = d.driverId ? await jobs.txRead(tx, d.driverId) : undefined;
      },
      apply: (d, to) => ({
        ...d,
        status: to,
        cancelledBy: action === 'cancel' ? ('SENDER' as const) : ('ADMIN' as const),
        cancelReason: reason,
        // The sender pays the driver's trouble once one is on the way; an administrator's cancellation is free.
        cancellationFeeVnd: action === 'cancel' && d.status === 'DRIVER_ASSIGNED' ? Math.min(settings.cancelFeeVnd, d.feeVnd) : 0,
        nextDispatchAt: null,
        endedAt: at,
        updatedAt: at,
      }),
      deadline: noDriverDeadline.expiry(),
    });
    return settlement.settleAfterMove(after);
  }

  /** The sender rates the driver once, within DELIVERY_RATING_WINDOW_DAYS of the delivery. */
  async function rate(senderId: string, id: string, input: { stars: number; comment?: string | null }) {
    const at = now();
    return inTransaction(async (tx) => {
      const d = await deliveryRepo.get(id, tx);
      if (!d || (d.senderId !== senderId && d.driverId !== senderId)) throw noSuchDelivery();
      if (d.senderId !== senderId) throw new ConflictError('Only the sender rates the driver').withCode('DELIVERY_NOT_ALLOWED');
      if (d.rating) throw new ConflictError('The delivery was rated already').withCode('DELIVERY_ALREADY_RATED');
      if (d.status !== 'DELIVERED' || d.deliveredAt === null || at - d.deliveredAt > settings.ratingWindowDays * 86_400_000)
        throw new ConflictError('Only a delivered parcel is rated, within the rating window', {
          status: d.status,
          windowDays: settings.ratingWindowDays,
        }).withCode('DELIVERY_RATING_WINDOW');
      const rating = { stars: input.stars, comment: input.comment ?? null, at };
      deliveryRepo.patch(tx, id, { rating });
      return { ...d, rating };
    });
  }

  return {
    expire,
    visible,
    pickup: (driverId: string, id: string, proof: HandoverInput) => handOver(driverId, id, 'pickup', proof),
    deliver: (driverId: string, id: string, proof: HandoverInput) => handOver(driverId, id, 'deliver', proof),
    cancel: (senderId: string, id: string, reason: string | null) => end(id, { userId: senderId, admin: false }, 'cancel', reason),
    adminCancel: (admin: DeliveryViewer, id: string, reason: string) => end(id, admin, 'adminCancel', reason),
    rate,
  };
}

export type DeliveryLifecycle = ReturnType<typeof createDeliveryLifecycle>;
