// Public face of the addresses module (rides and orders will read a saved address through here).
export { ADDRESSES, ADDRESS_LABELS } from './addresses.model';
