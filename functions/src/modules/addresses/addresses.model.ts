// `addresses/{id}`: a consumer's saved addresses (API only). At most 20 per user, one default, one HOME and one WORK.
export const ADDRESSES = 'addresses';
export const ADDRESS_LIMIT = 20;
export const ADDRESS_LABELS = ['HOME', 'WORK', 'OTHER'] as const;
export type AddressLabel = (typeof ADDRESS_LABELS)[number];

export interface AddressRecord {
  id: string;
  userId: string;
  label: AddressLabel;
  title: string | null;
  address: string;
  lat: number;
  lng: number;
  driverNote: string | null;
  contactName: string | null;
  contactPhone: string | null;
  isDefault: boolean;
  createdAt: number;
  updatedAt: number;
}

/** Default first, then HOME, WORK, then the oldest. */
export function addressOrder(a: AddressRecord, b: AddressRecord): number {
  const rank = (r: AddressRecord) => (r.isDefault ? 0 : r.label === 'HOME' ? 1 : r.label === 'WORK' ? 2 : 3);
  return rank(a) - rank(b) || a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1);
}
