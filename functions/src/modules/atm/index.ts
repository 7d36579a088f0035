// Public face of the atm module.
export { ATMS, BANKS } from './atm.catalog';
