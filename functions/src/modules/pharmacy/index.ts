// Public face of the pharmacy module: its store catalog (favorites and reviews check references through it).
export { PHARMACY_STORES } from './pharmacy.collections';
export function pharmacyStoresService() {
  return (require('./pharmacy.catalog') as typeof import('./pharmacy.catalog')).pharmacyStores();
}
