// Public face of the fuel module: its station catalog (favorites and reviews check references through it).
export { FUEL_STATIONS, FUEL_TYPES } from './fuel.catalog';
export function fuelStationsService() {
  return (require('./fuel.wiring') as typeof import('./fuel.wiring')).fuelStations();
}
