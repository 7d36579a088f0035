// Public face of the pharmacy module: its store catalog (favorites and reviews check references through it).
export { PHARMACY_STORES } from './pharmacy.catalog';
export function pharmacyStoresService() {
  return (require('./pharmacy.wiring') as typeof import('./pharmacy.wiring')).pharmacyStores();
}
