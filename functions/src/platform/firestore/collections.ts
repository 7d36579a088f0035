import type { CollectionDefinition } from '../module/module';
import { IDEMPOTENCY_COLLECTION } from '../idempotency/idempotency';
import { PUSH_OUTBOX } from '../push/transport';
import { RATE_LIMIT_COLLECTION } from '../ratelimit/rate-limit.store';

/** `meta/{docId}`: public platform metadata (seed version, maintenance banner), read by signed-in clients. */
export const META = 'meta';

// The collections platform kits own; modules declare theirs in their definitions (modules/index.ts joins both).
export const PLATFORM_COLLECTIONS: readonly CollectionDefinition[] = [
  { name: META, clientAccess: true },
  { name: RATE_LIMIT_COLLECTION, ttlField: 'expireAt' },
  { name: IDEMPOTENCY_COLLECTION, ttlField: 'expireAt' },
  { name: PUSH_OUTBOX, ttlField: 'expireAt' },
];
