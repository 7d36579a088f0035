import type { Transaction } from 'firebase-admin/firestore';
import { transition, type Tolerance, type TransitionResult } from '../../platform/kits/state-machine/state-machine';
import { noSuchOrder, type OrderViewer, type OrdersCore } from './orders.context';
import { confirmDeadline } from './orders.deadline';
import { isCalledOff, isFinal, orderMachine, type OrderAction, type OrderActor, type OrderStatus } from './orders.machine';
import { ORDER_SYSTEM_REASONS, type OrderRecord } from './orders.model';
import type { CourierState } from './orders.ports';
import { ordersRepo } from './orders.repo';
import type { OrderSettlementPart } from './orders.settlement';

// Every status change of an order is one `move`: one transaction on platform/kits/state-machine that reads the
// caller's roles (store staff through the sellers port), expires a PLACED order past its confirmation time first,
// and writes what the move means beside the order: the stock given back when it is called off, the courier shared
// with the consumer at pickup and released when the order ends or the courier leaves it. Money follows the commit (orders.settlement).

/** Moves that call an order off: its stock goes back in the same transaction. */
const CALL_OFF: readonly OrderAction[] = ['reject', 'cancel', 'storeCancel', 'adminCancel', 'expire', 'payFail'];
/** Moves that read the courier's state (shared at pickup, released at the end or when they leave the order). */
const COURIER_MOVES: readonly OrderAction[] = ['pickup', 'handOver', 'giveUp', 'giveUpBeforeReady', 'deliver', 'storeCancel', 'adminCancel'];

export interface MoveInput {
  action: OrderAction;
  /** The caller, or the service itself (`by`: `system:<source>`). */
  viewer: OrderViewer | { system: string };
  reason?: string | null;
  tolerant?: Tolerance;
  /** The order's own fields the move sets (status, updatedAt and the end are set here). */
  change?: (order: OrderRecord, at: number) => Partial<OrderRecord>;
  /** Checks of the caller's roles before the table's (e.g. an administrator who is a party of the order). */
  admit?: (roles: readonly OrderActor[]) => void;
  /** Checks beyond the table, on the order as it stands, once the table allows the move. */
  check?: (order: OrderRecord, roles: readonly OrderActor[]) => void;
  /** More reads of the move (after the order's); `write` runs beside the order's write. */
  read?: (tx: Transaction, order: OrderRecord) => Promise<void>;
  write?: (tx: Transaction, next: OrderRecord, previous: OrderRecord) => void;
  /** The courier gave the order up themselves: the job pool counts it and offers them no job until `cooldownUntil`. */
  gaveUp?: { cooldownUntil: number };
}

export type MoveResult = TransitionResult<OrderRecord, OrderStatus, OrderAction> & { roles: OrderActor[] };

export function createOrderMoves(core: OrdersCore, settlement: OrderSettlementPart) {
  const { ports, rolesOf, now } = core;
  const expiry = confirmDeadline.expiry();

  async function move(id: string, input: MoveInput): Promise<MoveResult> {
    const at = now();
    const { action, viewer } = input;
    let roles: OrderActor[] = [];
    let courier: CourierState | undefined;
    let giveBack: (() => void) | undefined;
    const returnStock = () => {
      giveBack?.();
      giveBack = undefined;
    };
    const store = ordersRepo.store(id, (tx, next, previous) => {
      if (isCalledOff(next.status)) returnStock();
      if (previous.driverId && (isFinal(next.status) || next.driverId !== previous.driverId)) ports.couriers.txRelease(tx, courier, id, at, input.gaveUp);
      if (next.status === 'PICKED_UP') ports.couriers.txShareWithCustomer(tx, courier, id, at);
      input.write?.(tx, next, previous);
    });
    const result = await transition(orderMachine, store, {
      action,
      by: 'system' in viewer ? viewer.system : viewer.userId,
      now: at,
      reason: input.reason ?? null,
      missing: noSuchOrder,
      async read(tx, order) {
        roles = 'system' in viewer ? ['SYSTEM'] : await rolesOf(order, viewer, tx);
        // A stranger learns nothing of the order (404 before any check).
        if (roles.length === 0) throw noSuchOrder();
        input.admit?.(roles);
        const callingOff = CALL_OFF.includes(action) || confirmDeadline.isDue(order, at);
        if (callingOff && !order.settlement.stockReturned)
          giveBack = await ports.sellers.txGiveBack(
            tx,
            order.seller,
            order.lines.map((l) => ({ itemKey: l.itemKey, quantity: l.quantity })),
          );
        if (order.driverId && COURIER_MOVES.includes(action)) courier = await ports.couriers.txRead(tx, order.driverId);
        await input.read?.(tx, order);
      },
      rolesOf: () => roles,
      guard: (order) => (orderMachine.accepts(action, order.status) ? input.check?.(order, roles) : undefined),
      apply: (order, to) => ({
        ...order,
        ...input.change?.(order, at),
        status: to,
        updatedAt: at,
        ...(isFinal(to) ? { endedAt: at } : {}),
        ...(isCalledOff(to) ? { settlement: { ...order.settlement, stockReturned: true } } : {}),
      }),
      // A PLACED order past its confirmation time is cancelled first (its stock back), whatever the move.
      deadline: {
        ...expiry,
        apply: (order, to, t) => ({ ...expiry.apply(order, to, t), settlement: { ...order.settlement, stockReturned: true } }),
        alongside: () => returnStock(),
      },
      tolerant: input.tolerant,
    });
    if (result.changed || result.expired) return { ...result, after: await settlement.settle(result.after), roles };
    return { ...result, roles };
  }

  /** The confirmation timer's move (task or lazy read): tolerant, never before it is due. */
  const expire = (id: string) => move(id, { action: 'expire', viewer: { system: expiry.by }, tolerant: 'refused' });

  /** The gateway payment's outcome, for an order awaiting it: PLACED when paid, CANCELLED when it failed or expired. */
  async function paymentOutcome(id: string, paymentId: string, paid: boolean): Promise<OrderRecord | undefined> {
    const order = await ordersRepo.get(id);
    if (!order || order.payment.paymentId !== paymentId) return undefined;
    if (order.status !== 'AWAITING_PAYMENT') {
      // Called off while the payment was open: money the gateway took goes back (and a failure is recorded as such).
      return isCalledOff(order.status) ? settlement.compensate(order) : order;
    }
    const moved = paid
      ? await move(id, {
          action: 'pay',
          viewer: { system: 'system:order-payment' },
          tolerant: 'refused',
          change: (_o, at) => ({ placedAt: at, confirmBy: at + core.settings.confirmTimeoutSec * 1000 }),
        })
      : await move(id, {
          action: 'payFail',
          viewer: { system: 'system:order-payment' },
          tolerant: 'refused',
          change: () => ({ cancelledBy: 'SYSTEM', cancelReason: ORDER_SYSTEM_REASONS.PAYMENT_FAILED, cancelReasonCode: 'PAYMENT_FAILED' }),
        });
    return moved.after;
  }

  /** An order awaiting a payment that has an outcome already (its notice came before the order was stored). */
  async function reconcilePayment(order: OrderRecord): Promise<OrderRecord> {
    const paymentId = order.payment.paymentId;
    if (order.status !== 'AWAITING_PAYMENT' || !paymentId) return order;
    const payment = await core.deps.payments.get(paymentId);
    if (payment.status === 'PENDING') return order;
    return (await paymentOutcome(order.id, paymentId, payment.status === 'SUCCEEDED')) ?? order;
  }

  /** The order as it stands now (the lazy checks): expired when its confirmation time passed, moved on when its payment has an outcome. */
  async function upToDate(order: OrderRecord): Promise<OrderRecord> {
    if (confirmDeadline.isDue(order, now())) return (await expire(order.id)).after;
    return reconcilePayment(order);
  }

  return { move, expire, paymentOutcome, reconcilePayment, upToDate };
}

export type OrderMoves = ReturnType<typeof createOrderMoves>;
