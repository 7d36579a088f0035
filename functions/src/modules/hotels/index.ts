// Public face of the hotels module: its hotel catalog (favorites and reviews reach hotels through it).
export { HOTELS } from './hotels.collections';
export function hotelsService() {
  return (require('./hotels.catalog') as typeof import('./hotels.catalog')).hotelRecords();
}
