// Public face of the places module: its catalog (favorites and reviews check references through it).
export { PLACES } from './places.collections';
export function placesCatalogService() {
  return (require('./places.catalog') as typeof import('./places.catalog')).placesService();
}
