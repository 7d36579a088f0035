import type { Transaction } from 'firebase-admin/firestore';
import type { AuthContext } from '../../platform/auth/access-token';
import type { CatalogRecord } from '../../platform/catalog/catalog.model';
import { atmsService } from '../atm';
import { fuelStationsService } from '../fuel';
import { parkingLotsService } from '../parking';
import { pharmacyStoresService } from '../pharmacy';
import { placesCatalogService } from '../places';

// Records a user can save or review, by type. Merchants, hotels, listings and doctors join this table when their
// modules exist; each type answers which ids are active and who manages a record.
export const TARGET_TYPES = ['PLACE', 'PHARMACY_STORE', 'PARKING_LOT', 'FUEL_STATION', 'ATM'] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

export interface TargetSource {
  activeByIds(ids: readonly string[]): Promise<Array<CatalogRecord<unknown> | undefined>>;
  isManagedBy(id: string, caller: Pick<AuthContext, 'userId' | 'roles'>, tx?: Transaction): Promise<boolean>;
  /** Stores review figures computed at `asOf` unless newer ones stand. */
  applyRating(id: string, rating: { average: number; count: number; asOf: number }): Promise<boolean>;
}

const SOURCES: Record<TargetType, () => TargetSource> = {
  PLACE: placesCatalogService,
  PHARMACY_STORE: pharmacyStoresService,
  PARKING_LOT: parkingLotsService,
  FUEL_STATION: fuelStationsService,
  ATM: atmsService,
};

export const targetSource = (type: TargetType): TargetSource => SOURCES[type]();

/** What a list shows of a saved or reviewed record. */
export function targetSummary(record: CatalogRecord<unknown>) {
  return { id: record.id, name: record.name, address: record.address, location: { lat: record.lat, lng: record.lng }, photoUrl: record.photos[0]?.url ?? null, rating: { average: record.ratingAvg, count: record.ratingCount } };
}
