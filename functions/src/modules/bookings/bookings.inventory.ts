import { defineInventory } from '../../platform/kits/inventory/inventory';
import { BOOKING_INVENTORY } from './bookings.collections';

/** The capacity every booking takes, per resource and unit (platform/kits/inventory). */
export const bookingInventory = defineInventory({ collection: BOOKING_INVENTORY, unavailableCode: 'BOOKING_UNAVAILABLE' });

/** A resource's booking transactions run one at a time in the instance (its last unit is the hot document). */
export const resourceQueueKey = (resourceId: string) => `bookings/${resourceId}`;
