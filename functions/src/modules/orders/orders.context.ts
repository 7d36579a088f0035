import type { ImageLinks } from '../media';
import type { Transaction } from 'firebase-admin/firestore';
import { holdsPermission } from '../../platform/core/auth/roles';
import { ForbiddenError, NotFoundError } from '../../platform/core/errors/app-error';
import type { DeadlineScheduler } from '../../platform/kits/deadlines/deadlines';
import { confirmDeadline, courierDeadline, pickupDeadline } from './orders.deadline';
import type { paymentCommands } from '../payments';
import type { OrderSettings } from './orders.config';
import type { OrderActor } from './orders.machine';
import type { OrderRecord } from './orders.model';
import type { OrderPorts } from './orders.ports';

// What every part of the orders service shares: its dependencies, its clock, and who may see and act on an order.

export const ORDERS_PERMISSION = 'orders.manage' as const;

export interface OrdersDeps {
  ports: OrderPorts;
  payments: Pick<ReturnType<typeof paymentCommands>, 'capture' | 'release' | 'refund' | 'get' | 'charge'>;
  settings: OrderSettings;
  /** The timers' schedulers (the deadlines' own queues by default; fakes in tests). */
  schedulers?: Partial<OrderSchedulers>;
  /** The prescription's short-lived link (media's face); without it an order shows none. */
  media?: ImageLinks;
  now?: () => number;
}

export interface OrderSchedulers {
  confirm: DeadlineScheduler<{ orderId: string }>;
  courier: DeadlineScheduler<{ orderId: string; attempt?: string }>;
  pickup: DeadlineScheduler<{ orderId: string; assignment?: string }>;
}

export interface OrdersCore {
  deps: OrdersDeps;
  schedulers: OrderSchedulers;
  ports: OrderPorts;
  settings: OrderSettings;
  now: () => number;
  /** The caller's roles on an order (read in the transaction when given). */
  rolesOf(order: OrderRecord, viewer: OrderViewer, tx?: Transaction): Promise<OrderActor[]>;
}

/** Who is asking: an administrator counts as one only while holding orders.manage. */
export interface OrderViewer {
  userId: string;
  admin: boolean;
}

export function orderViewerOf(auth: { userId: string; roles: readonly string[]; permissions?: string[] }): OrderViewer {
  return { userId: auth.userId, admin: auth.roles.includes('ADMIN') && holdsPermission(auth.permissions, ORDERS_PERMISSION) };
}

export const noSuchOrder = () => new NotFoundError('No such order');

export function createOrdersCore(deps: OrdersDeps): OrdersCore {
  const { ports } = deps;
  /** A party acts as that party only; an administrator's role is for orders they have no part in. */
  async function rolesOf(order: OrderRecord, viewer: OrderViewer, tx?: Transaction): Promise<OrderActor[]> {
    const roles: OrderActor[] = [];
    if (order.consumerId === viewer.userId) roles.push('CONSUMER');
    if (order.driverId === viewer.userId) roles.push('COURIER');
    if (await ports.sellers.staffRole(order.seller, viewer.userId, tx)) roles.push('STORE');
    if (viewer.admin && roles.length === 0) roles.push('ADMIN');
    return roles;
  }
  const schedulers: OrderSchedulers = {
    confirm: deps.schedulers?.confirm ?? confirmDeadline.scheduler,
    courier: deps.schedulers?.courier ?? courierDeadline.scheduler,
    pickup: deps.schedulers?.pickup ?? pickupDeadline.scheduler,
  };
  return { deps, schedulers, ports, settings: deps.settings, now: deps.now ?? Date.now, rolesOf };
}

/** Administrators never act on an order they are a party of (no one settles their own money). */
export function notOwnOrder(roles: readonly OrderActor[]): void {
  if (!roles.includes('ADMIN'))
    throw new ForbiddenError('Administrators do not manage an order they are a party of; another administrator does').withCode('ORDER_SELF_MANAGE');
}
