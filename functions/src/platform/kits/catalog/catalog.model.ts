import { defineMachine } from '../state-machine/state-machine';
import type { OpeningHours } from './hours';

// Located records a partner manages and everybody reads: places, pharmacy stores, parking lots, fuel stations,
// ATMs. One document per record in the vertical's collection; the vertical's own fields live under `details`.

export const CATALOG_STATUSES = ['ACTIVE', 'HIDDEN', 'ARCHIVED'] as const;
export type CatalogStatus = (typeof CATALOG_STATUSES)[number];

export interface CatalogPhoto {
  id: string;
  url: string;
}

export interface CatalogRecord<D = Record<string, unknown>> {
  id: string;
  /** The partner that manages it; null for a record curated by the administrators. */
  partnerId: string | null;
  name: string;
  /** The name folded for search (lower case, no diacritics) and ordering. */
  nameFolded: string;
  /** Prefixes of the name's folded words: `array-contains` search. */
  terms: string[];
  description: string | null;
  address: string | null;
  phone: string | null;
  lat: number;
  lng: number;
  geohash: string;
  photos: CatalogPhoto[];
  hours: OpeningHours | null;
  status: CatalogStatus;
  /** Why an administrator hid it (shown to its managers). */
  statusReason: string | null;
  /** Kept by the reviews trigger. */
  ratingAvg: number;
  ratingCount: number;
  /** Read time (ms) of the review aggregate last written: an older computation never overwrites a newer one. */
  ratingAsOf?: number;
  details: D;
  createdBy: string;
  createdAt: number;
  updatedAt: number;
}

/** Who acts on a record: its managers (the partner's owner and staff, or administrators for curated ones) or an administrator. */
export type CatalogActor = 'MANAGER' | 'ADMIN';

// Managers archive; administrators hide and restore (moderation).
export const catalogMachine = defineMachine({
  entity: 'record',
  states: CATALOG_STATUSES,
  moves: {
    hide: { from: 'ACTIVE', to: 'HIDDEN', by: 'ADMIN' },
    restore: { from: 'HIDDEN', to: 'ACTIVE', by: 'ADMIN' },
    archive: { from: ['ACTIVE', 'HIDDEN'], to: 'ARCHIVED', by: 'MANAGER' },
  },
  codes: { transition: 'CATALOG_TRANSITION', actor: 'CATALOG_NOT_ALLOWED' },
} as const);
export type CatalogAction = keyof typeof catalogMachine.definition.moves;
