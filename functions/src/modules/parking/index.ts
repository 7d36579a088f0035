// Public face of the parking module: its lot catalog (favorites, reviews and parking bookings go through it).
export { PARKING_LOTS } from './parking.collections';
export function parkingLotsService() {
  return (require('./parking.catalog') as typeof import('./parking.catalog')).parkingLots();
}
