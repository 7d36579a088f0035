// Public face of the delivery module: the parcels collection and statuses (other modules read nothing else of it).
export { DELIVERIES } from './delivery.collections';
export { DELIVERY_STATUSES, type DeliveryStatus } from './delivery.machine';
