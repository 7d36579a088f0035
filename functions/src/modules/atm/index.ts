// Public face of the atm module.
export { ATMS } from './atm.collections';
export function atmsService() {
  return (require('./atm.catalog') as typeof import('./atm.catalog')).atms();
}
