// Public face of the atm module.
export { ATMS, BANKS } from './atm.catalog';
export function atmsService() {
  return (require('./atm.wiring') as typeof import('./atm.wiring')).atms();
}
