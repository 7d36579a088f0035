// Public face of the rentals module: its listings' catalog (favorites and reviews reach listings through it).
export { RENTAL_LISTINGS } from './rentals.collections';
export function rentalListingsService() {
  return (require('./rentals.catalog') as typeof import('./rentals.catalog')).rentalListings();
}
