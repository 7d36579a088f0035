// Public face of the pharmacy module: its store catalog (favorites and reviews check references through it) and
// the stores' products (orders of medicine through the merchants module's sellers face).
export { PHARMACY_PRODUCTS, PHARMACY_STORES } from './pharmacy.collections';
export function pharmacyStoresService() {
  return (require('./pharmacy.catalog') as typeof import('./pharmacy.catalog')).pharmacyStores();
}
/** The products of each store (the catalog kit's items: sku, name, priceVnd, stock counted, requiresPrescription). */
export function pharmacyProductsService() {
  return (require('./pharmacy.catalog') as typeof import('./pharmacy.catalog')).pharmacyProducts();
}
