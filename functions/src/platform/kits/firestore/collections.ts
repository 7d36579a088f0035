import type { ListenedDocument } from './documents';

export interface CollectionDefinition {
  name: string;
  /** For a subcollection: the collection its parent documents live in. */
  parent?: string;
  /** Field of a Firestore TTL policy, declared in firestore.indexes.json `fieldOverrides`. */
  ttlField?: string;
  /** Map fields exempt from indexing (a `fieldOverrides` entry with no index in firestore.indexes.json, checked). */
  unindexed?: readonly string[];
  /** Clients reach some documents directly under firestore.rules (the default is deny: the API only). */
  clientAccess?: boolean;
  /** The documents clients read with listeners: their published schema, path and readers (the Firestore contract). */
  listened?: ListenedDocument;
}

// Names only: module definitions (and so the Cloud Functions entry) load this file; the kits import from it.
export const RATE_LIMIT_COLLECTION = 'rate_limits';
export const IDEMPOTENCY_COLLECTION = 'idempotency_keys';
export const PUSH_OUTBOX = 'push_outbox';

/** The geohash cell index beside a collection whose records are found nearby (geo/cell-index.ts). */
export const cellIndexOf = (collection: string) => `${collection}_cells`;
/** Its declaration: its count and entry maps are read by id only, never queried, so nothing indexes them. */
export const cellIndexCollection = (collection: string): CollectionDefinition => ({ name: cellIndexOf(collection), unindexed: ['c', 'e'] });

/** `meta/{docId}`: public platform metadata (seed version, maintenance banner), read by signed-in clients. */
export const META = 'meta';

// The collections platform kits own; modules declare theirs in their definitions (modules/index.ts joins both).
export const PLATFORM_COLLECTIONS: readonly CollectionDefinition[] = [
  {
    name: META,
    clientAccess: true,
    listened: {
      name: 'MetaSeedDocument',
      path: `${META}/seed`,
      readers: 'any signed-in client',
      writers: 'scripts/seed.mjs (emulator data only)',
      schema: () => (require('./meta') as typeof import('./meta')).metaSeedDocument(),
    },
  },
  { name: RATE_LIMIT_COLLECTION, ttlField: 'expireAt' },
  { name: IDEMPOTENCY_COLLECTION, ttlField: 'expireAt' },
  { name: PUSH_OUTBOX, ttlField: 'expireAt' },
];
