import { defineEvents, HOUR, link, type EventPolicy, type Surface } from '../notifications';

// The orders module's rows of the hub's event table: the spec's three (moved here from spec-events) and the module's
// own for the other steps. Inbox ORDER, sound notif_order, channel app-orders, the app link app://orders/:id.
const CON = link('MapTab', 'OrderTrack');
const PAR = link('OrdersTab', 'OrderDetail');
const DRV = link('TripTab', 'CourierJob');
const order = (pattern: string, recipients: readonly Surface[]): EventPolicy => ({
  pattern,
  kind: 'ORDER',
  recipients,
  push: 'allowed',
  realtime: null,
  sfx: 'notif_order',
  androidChannel: 'app-orders',
  preference: 'order',
  deepLink: Object.fromEntries(recipients.map((s) => [s, s === 'CON' ? CON : s === 'PAR' ? PAR : DRV])),
  appLink: 'orders',
  collapse: true,
  ttlSec: 6 * HOUR,
});

export const ORDER_EVENTS = defineEvents([
  order('order.created', ['CON', 'PAR']),
  order('order.confirmed', ['CON']),
  order('order.cancelled', ['CON', 'PAR']),
  order('order.rejected', ['CON']),
  order('order.preparing', ['CON']),
  // The consumer hears who brings it; the courier hears the job.
  order('order.assigned', ['CON', 'DRV']),
  order('order.pickedUp', ['CON']),
  order('order.delivered', ['CON', 'PAR']),
  // The courier's job ended before pickup (the store or an administrator cancelled the order).
  order('order.unassigned', ['DRV']),
]);
