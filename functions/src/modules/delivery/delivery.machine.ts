import { defineMachine } from '../../platform/kits/state-machine/state-machine';

// A parcel is taken by a driver (DRIVER_ASSIGNED), picked up with the sender's code (PICKED_UP) and delivered with
// the recipient's (DELIVERED). The sender cancels before pickup, an administrator until delivery; nobody taking it
// within the window ends it NO_DRIVER. The driver gives it up before pickup (or the pickup timer releases them):
// back to CREATED, searched for again.
export const DELIVERY_STATUSES = ['CREATED', 'DRIVER_ASSIGNED', 'PICKED_UP', 'DELIVERED', 'CANCELLED', 'NO_DRIVER'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
export const ACTIVE_DELIVERY_STATUSES: readonly DeliveryStatus[] = ['CREATED', 'DRIVER_ASSIGNED', 'PICKED_UP'];
export const ENDED_DELIVERY_STATUSES: readonly DeliveryStatus[] = ['DELIVERED', 'CANCELLED', 'NO_DRIVER'];

export type DeliveryAction = 'assign' | 'giveUp' | 'pickup' | 'deliver' | 'cancel' | 'adminCancel' | 'expire';
export type DeliveryActor = 'SENDER' | 'DRIVER' | 'ADMIN' | 'SYSTEM';
const codes = { transition: 'DELIVERY_TRANSITION', actor: 'DELIVERY_NOT_ALLOWED' } as const;

export const deliveryMachine = defineMachine<DeliveryStatus, DeliveryAction, DeliveryActor>({
  entity: 'delivery',
  states: DELIVERY_STATUSES,
  moves: {
    assign: { from: 'CREATED', to: 'DRIVER_ASSIGNED', by: 'SYSTEM' },
    giveUp: { from: 'DRIVER_ASSIGNED', to: 'CREATED', by: ['DRIVER', 'SYSTEM'] },
    pickup: { from: 'DRIVER_ASSIGNED', to: 'PICKED_UP', by: 'DRIVER' },
    deliver: { from: 'PICKED_UP', to: 'DELIVERED', by: 'DRIVER' },
    cancel: { from: ['CREATED', 'DRIVER_ASSIGNED'], to: 'CANCELLED', by: 'SENDER' },
    adminCancel: { from: ['CREATED', 'DRIVER_ASSIGNED', 'PICKED_UP'], to: 'CANCELLED', by: 'ADMIN' },
    expire: { from: 'CREATED', to: 'NO_DRIVER', by: 'SYSTEM' },
  },
  codes,
});

/** Placing a parcel: NEW (before its first write) → CREATED, so that the placing is the first line of its history. */
export const placingMachine = defineMachine<'NEW' | DeliveryStatus, 'place', DeliveryActor>({
  entity: 'delivery',
  states: ['NEW', ...DELIVERY_STATUSES],
  moves: { place: { from: 'NEW', to: 'CREATED', by: 'SENDER' } },
  codes,
});
