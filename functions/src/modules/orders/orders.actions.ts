import { AppError, BadRequestError, UnprocessableError } from '../../platform/core/errors/app-error';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { recordNote } from '../../platform/kits/state-machine/state-machine';
import { LOCATION_STALE_MS } from '../driver';
import { attachableImage } from '../media';
import { noSuchOrder, notOwnOrder, type OrderViewer, type OrdersCore } from './orders.context';
import { checkHandoverCode, handoverCodeError, handoverTooFarError, proveHandover, type PhotoHandoverCheck } from '../../platform/kits/handover/handover';
import type { OrderMoves } from './orders.lifecycle';
import { orderMachine, type OrderAction, type OrderActor } from './orders.machine';
import type { OrderRecord } from './orders.model';
import { ordersRepo } from './orders.repo';

// The parties' moves: the store's (confirm, reject, preparing, ready, cancel), the consumer's cancel, the courier's
// pickup and delivery (proved by the consumer's code or a photo), an administrator's cancel. Each tolerates its own
// repeat: a retry of a move that happened answers the order as it is.

export type Moved = { order: OrderRecord; roles: OrderActor[] };
export type DeliveryProof = { code: string } | { photoMediaId: string };

const reasonRequired = () => new BadRequestError('A reason is required', [{ field: 'body.reason', message: 'is required' }]);

export function createOrderActions(core: OrdersCore, moves: OrderMoves) {
  const { rolesOf, now, settings, ports } = core;
  const { move } = moves;

  const answer = (result: { after: OrderRecord; roles: OrderActor[] }): Moved => ({ order: result.after, roles: result.roles });

  /** The store's step: confirm, reject (reason), preparing, ready. */
  async function storeMove(viewer: OrderViewer, id: string, action: 'confirm' | 'reject' | 'preparing' | 'ready', reason?: string | null): Promise<Moved> {
    if (action === 'reject' && !reason) throw reasonRequired();
    try {
      return answer(
        await move(id, {
          action,
          viewer,
          reason: reason ?? null,
          tolerant: 'target',
          change: (order, at) => {
            if (action === 'confirm') return { confirmedAt: at };
            if (action === 'reject') return { cancelledBy: 'STORE', cancelReason: reason ?? null };
            // A new search round at once (the task of a round armed while it was prepared does nothing then).
            if (action === 'ready') return { readyAt: at, courierAttempt: (order.courierAttempt ?? 0) + 1, courierRetryAt: null };
            // The courier search starts so that a courier arrives about when the food is ready.
            const searchIn = Math.max(0, order.prepTimeMin * 60 - settings.courierLeadSec);
            return { preparingAt: at, courierSearchFrom: settings.courierLeadSec > 0 ? at + searchIn * 1000 : null };
          },
        }),
      );
    } catch (err) {
      // A courier found while the food was prepared: "ready" is then a note on the assigned order.
      if (action === 'ready' && isTransition(err, 'COURIER_ASSIGNED')) return markReady(viewer, id);
      throw err;
    }
  }

  function isTransition(err: unknown, status: string): boolean {
    return err instanceof AppError && err.code === 'ORDER_TRANSITION' && (err.details as { status?: string } | undefined)?.status === status;
  }

  /** The store says a COURIER_ASSIGNED order is ready: no status change, a line in its history (once). */
  function markReady(viewer: OrderViewer, id: string): Promise<Moved> {
    const at = now();
    return inTransaction(async (tx) => {
      const order = await ordersRepo.get(id, tx);
      if (!order) throw noSuchOrder();
      const roles = await rolesOf(order, viewer, tx);
      if (roles.length === 0) throw noSuchOrder();
      orderMachine.checkActor('ready', roles);
      if (order.status !== 'COURIER_ASSIGNED') orderMachine.check('ready', order.status, roles);
      if (order.readyAt !== null) return { order, roles };
      // The courier's pickup window runs from now (later than the assignment).
      const next = { ...order, readyAt: at, pickupBy: at + settings.pickupWindowMin * 60_000, updatedAt: at };
      ordersRepo.save(tx, next);
      recordNote(tx, ordersRepo.ref(id), { action: 'ready', status: order.status, by: viewer.userId, at });
      return { order: next, roles };
    });
  }

  /**
   * The consumer's cancel (before the store confirmed, free) or the store's (before pickup, with a reason): one
   * route, the caller's role decides which move it is.
   */
  async function cancel(viewer: OrderViewer, id: string, reason: string | null): Promise<Moved> {
    const order = await ordersRepo.get(id);
    if (!order) throw noSuchOrder();
    const roles = await rolesOf(order, viewer);
    if (roles.length === 0) throw noSuchOrder();
    const asStore = roles.includes('STORE') && !(roles.includes('CONSUMER') && orderMachine.accepts('cancel', order.status));
    if (asStore && !reason) throw reasonRequired();
    const action: OrderAction = asStore ? 'storeCancel' : 'cancel';
    return answer(
      await move(id, {
        action,
        viewer,
        reason,
        tolerant: 'target',
        change: () => ({ cancelledBy: asStore ? 'STORE' : 'CONSUMER', cancelReason: reason }),
      }),
    );
  }

  /** An administrator's cancel (orders.manage), until delivery, never of an order they are a party of. */
  async function adminCancel(viewer: OrderViewer, id: string, reason: string): Promise<Moved> {
    return answer(
      await move(id, {
        action: 'adminCancel',
        viewer,
        reason,
        tolerant: 'target',
        admit: notOwnOrder,
        change: () => ({ cancelledBy: 'ADMIN', cancelReason: reason }),
      }),
    );
  }

  /** The courier has the order: the consumer sees the courier's position from now. */
  const pickup = async (viewer: OrderViewer, id: string): Promise<Moved> =>
    answer(await move(id, { action: 'pickup', viewer, tolerant: 'target', change: (o, at) => ({ pickedUpAt: at, readyAt: o.readyAt ?? at }) }));

  /**
   * A wrong code is counted in its own transaction before the move (the move is refused, the count stays); the
   * delivery then checks the code again in its transaction. Only the order's courier, once it is PICKED_UP, may try.
   */
  async function checkCode(viewer: OrderViewer, id: string, code: string): Promise<void> {
    const at = now();
    const refusal = await inTransaction(async (tx) => {
      const [order, handover] = await Promise.all([ordersRepo.get(id, tx), ordersRepo.handover(id, tx)]);
      if (!order || !handover) throw noSuchOrder();
      const roles = await rolesOf(order, viewer, tx);
      if (roles.length === 0) throw noSuchOrder();
      if (order.status === 'DELIVERED' && roles.includes('COURIER')) return undefined; // a repeat: answered by the move
      orderMachine.check('deliver', order.status, roles);
      const checked = checkHandoverCode(handover, code, at);
      if (checked.outcome === 'MATCH') return undefined;
      // Committed before the refusal is answered: a count rolled back with the error would allow endless guesses.
      ordersRepo.txSaveCodeState(tx, id, checked.state, at);
      return checked;
    });
    const error = refusal && handoverCodeError(refusal, { wrong: 'ORDER_HANDOVER_INVALID', locked: 'ORDER_HANDOVER_LOCKED' });
    if (error) throw error;
  }

  /**
   * The courier hands the order over, proved by the consumer's code or a photo of theirs taken near the drop-off (the
   * handover kit's `proveHandover`: their last known position within HANDOVER_PHOTO_RADIUS_M); the money follows.
   */
  async function deliver(viewer: OrderViewer, id: string, proof: DeliveryProof): Promise<Moved> {
    if ('code' in proof) await checkCode(viewer, id, proof.code);
    let codeStands = true;
    let photo: PhotoHandoverCheck | undefined;
    return answer(
      await move(id, {
        action: 'deliver',
        viewer,
        tolerant: 'target',
        async read(tx, order) {
          if ('code' in proof) {
            const handover = await ordersRepo.handover(id, tx);
            codeStands = !!handover && checkHandoverCode(handover, proof.code, now()).outcome === 'MATCH';
          } else if (order.status === 'PICKED_UP' && order.driverId === viewer.userId) {
            const lookups = { photos: attachableImage, positions: ports.couriers.lastPosition };
            const place = { lat: order.dropoff.lat, lng: order.dropoff.lng };
            const since = order.pickedUpAt ?? 0;
            const input = {
              courierId: viewer.userId,
              photoId: proof.photoMediaId,
              place,
              radiusM: settings.handoverRadiusM,
              maxAgeMs: LOCATION_STALE_MS,
              since,
            };
            photo = await proveHandover(lookups, { ...input, at: now(), tx });
          }
        },
        check: () => {
          if (!codeStands) throw new UnprocessableError('The delivery code is wrong', { attemptsLeft: 0 }).withCode('ORDER_HANDOVER_INVALID');
          if (photo?.outcome === 'NOT_YOURS')
            throw new UnprocessableError('The photo is not one of your READY image uploads taken since the pickup').withCode('ORDER_PROOF_INVALID');
          const tooFar = photo && handoverTooFarError(photo, 'ORDER_HANDOVER_TOO_FAR');
          if (tooFar) throw tooFar;
        },
        change: (_o, at) => ({
          deliveredAt: at,
          proof: photo?.outcome === 'PROVED' ? { kind: 'PHOTO', mediaId: photo.proof.photo?.id ?? null } : { kind: 'CODE', mediaId: null },
        }),
      }),
    );
  }

  return { storeMove, cancel, adminCancel, pickup, deliver };
}

export type OrderActions = ReturnType<typeof createOrderActions>;
