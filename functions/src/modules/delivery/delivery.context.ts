import { holdsPermission } from '../../platform/core/auth/roles';
import { ForbiddenError, NotFoundError } from '../../platform/core/errors/app-error';
import type { DeadlineScheduler } from '../../platform/kits/deadlines/deadlines';
import type { DeliverySettings } from './delivery.config';
import type { DeliveryActor } from './delivery.machine';
import type { DeliveryRecord } from './delivery.model';
import type { DeliveryPorts } from './delivery.ports';
import type { DeliveryAudience } from './delivery.views';

// What every part of the delivery service shares: its ports, settings and clock, and who may act on a parcel.

export interface DeliverySchedulers {
  noDriver: DeadlineScheduler<{ deliveryId: string; holdPaymentId?: string }>;
  dispatch: DeadlineScheduler<{ deliveryId: string }>;
  pickup: DeadlineScheduler<{ deliveryId: string; assignment?: string }>;
}

export interface DeliveryDeps extends DeliveryPorts {
  settings: DeliverySettings;
  /** Signs quotes (derived from the server secret). */
  quoteKey: Buffer;
  /** The timers' queues; by default the deadlines' own (platform/kits/deadlines). */
  schedulers?: DeliverySchedulers;
  now?: () => number;
}

export interface DeliveryCore {
  deps: DeliveryDeps;
  schedulers: DeliverySchedulers;
  now: () => number;
}

/** Who is acting: an administrator counts as one only while holding delivery.manage (else a plain party). */
export interface DeliveryViewer {
  userId: string;
  admin: boolean;
}

export function deliveryViewerOf(auth: { userId: string; roles: readonly string[]; permissions?: string[] }): DeliveryViewer {
  return { userId: auth.userId, admin: auth.roles.includes('ADMIN') && holdsPermission(auth.permissions, 'delivery.manage') };
}

/** An administrator who is the parcel's sender or driver acts as that party only. */
export function rolesOf(d: Pick<DeliveryRecord, 'senderId' | 'driverId'>, viewer: DeliveryViewer): DeliveryActor[] {
  const party = d.senderId === viewer.userId || d.driverId === viewer.userId;
  return [
    ...(d.senderId === viewer.userId ? (['SENDER'] as const) : []),
    ...(d.driverId === viewer.userId ? (['DRIVER'] as const) : []),
    ...(viewer.admin && !party ? (['ADMIN'] as const) : []),
  ];
}

/** What a viewer reads of the parcel; undefined when it is not theirs to see (answered 404, like a missing one). */
export function audienceOf(d: Pick<DeliveryRecord, 'senderId' | 'driverId'>, viewer: DeliveryViewer): DeliveryAudience | undefined {
  if (d.senderId === viewer.userId) return 'SENDER';
  if (d.driverId === viewer.userId) return 'DRIVER';
  return viewer.admin ? 'ADMIN' : undefined;
}

export const noSuchDelivery = () => new NotFoundError('No such delivery');

export function notOwnDelivery(d: Pick<DeliveryRecord, 'senderId' | 'driverId'>, adminId: string): void {
  if (d.senderId === adminId || d.driverId === adminId)
    throw new ForbiddenError('Administrators do not cancel a parcel they are the sender or driver of; another administrator does').withCode(
      'DELIVERY_SELF_MANAGE',
    );
}
