// Public face of the places module: its catalog (favorites and reviews check references through it).
export { PLACES, PLACE_CATEGORIES } from './places.catalog';
export function placesCatalogService() {
  return (require('./places.wiring') as typeof import('./places.wiring')).placesService();
}
