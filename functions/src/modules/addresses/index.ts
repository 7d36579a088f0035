// Public face of the addresses module: checkout reads a saved address through here.
import type { AddressRecord } from './addresses.model';
export { ADDRESSES, ADDRESS_LABELS } from './addresses.model';

/** One of the user's saved addresses; undefined for none, or another user's (as unknown as a missing one). */
export async function savedAddress(userId: string, id: string): Promise<AddressRecord | undefined> {
  const { addressesRepo } = require('./addresses.repo') as typeof import('./addresses.repo');
  const found = await addressesRepo.get(id);
  return found?.userId === userId ? found : undefined;
}
