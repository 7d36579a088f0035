import { defineEvents, HOUR, link, type DeepLinkTarget, type EventPolicy, type Surface } from '../notifications';

// The delivery module's rows of the hub's event table (beyond the spec's matrix, like the ORDER rows they sit
// beside): inbox kind ORDER, the order sound and push channel, the parcel's tracking screen. The hub's app links
// know rides, orders and chat only: each notice carries `app://deliveries/:id` in its deep-link params instead.
const TRACK = link('MapTab', 'DeliveryTrack');
const JOB = link('TripTab', 'DeliveryJob');
const parcel = (pattern: string, recipients: readonly Surface[], drv?: DeepLinkTarget): EventPolicy => ({
  pattern,
  kind: 'ORDER',
  recipients,
  push: 'allowed',
  realtime: null,
  sfx: 'notif_order',
  androidChannel: 'app-orders',
  preference: 'order',
  deepLink: drv ? { CON: TRACK, DRV: drv } : { CON: TRACK },
  appLink: null,
  collapse: true,
  ttlSec: 6 * HOUR,
});

export const DELIVERY_EVENTS = defineEvents([
  parcel('delivery.assigned', ['CON', 'DRV'], JOB),
  parcel('delivery.picked_up', ['CON']),
  parcel('delivery.delivered', ['CON', 'DRV'], JOB),
  parcel('delivery.cancelled', ['CON', 'DRV'], JOB),
  parcel('delivery.no_driver', ['CON']),
]);

/** The app link of a parcel (deep-link param `appLink`). */
export const deliveryAppLink = (id: string) => `app://deliveries/${id}`;
