// Public face of the parking module: its lot catalog (favorites, reviews and parking bookings go through it).
export { PARKING_LOTS, PARKING_VEHICLES } from './parking.catalog';
export function parkingLotsService() {
  return (require('./parking.wiring') as typeof import('./parking.wiring')).parkingLots();
}
