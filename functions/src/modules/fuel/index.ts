// Public face of the fuel module: its station catalog (favorites and reviews check references through it).
export { FUEL_STATIONS } from './fuel.collections';
export function fuelStationsService() {
  return (require('./fuel.catalog') as typeof import('./fuel.catalog')).fuelStations();
}
