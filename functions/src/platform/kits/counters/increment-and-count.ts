import type { DocumentReference } from 'firebase-admin/firestore';
import { firestoreApi } from '../../core/firebase/firebase';

// A counter that must know its count after adding to it (a rate limit's window, an OTP's attempts): one plain
// document, so about one sustained write a second (a popular document's counts belong in shardedCounter). Firestore
// answers an increment's result in the commit (WriteResult.transformResults), but the SDK's public WriteResult leaves
// it out, so reading it back would be a second round trip. This commits through the batch's own commit path
// (`_commit`, internal to @google-cloud/firestore; its transactions and bulk writer use it too) with the public
// commit's retries, and takes the count from the answer. An SDK that no longer has it, or answers no transform result,
// gets the read back; increment-and-count.test.ts fails then, so an upgrade that loses the one round trip is seen.

/** The commit's answer as far as it is read here (the Firestore v1 CommitResponse). */
interface CommitResponse {
  writeResults?: Array<{ transformResults?: Array<{ integerValue?: string | number | null; doubleValue?: number | null }> }>;
}
type CommitPath = (options: { retryCodes: number[] }) => Promise<CommitResponse>;

/** The public WriteBatch.commit's retries: ABORTED (a transaction holding the document), then the commit's configured RESOURCE_EXHAUSTED and UNAVAILABLE. */
export const COMMIT_RETRY_CODES = [10, 8, 14];

/** A count that cannot be read: callers compare it with a limit, so it refuses (a rate limit, attempts, a lock). */
const UNKNOWN_COUNT = Number.MAX_SAFE_INTEGER;

/** The new value of the counter, when the commit answered it. */
function countFrom(response: CommitResponse): number | undefined {
  const value = response.writeResults?.[0]?.transformResults?.[0];
  const n = Number(value?.integerValue ?? value?.doubleValue ?? Number.NaN);
  return Number.isFinite(n) ? n : undefined;
}

/** Whether a value holds a field transform (an increment, a server timestamp), at any depth of plain objects. */
const holdsTransform = (value: unknown): boolean =>
  value instanceof firestoreApi().FieldValue ||
  (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype && Object.values(value).some(holdsTransform));

/**
 * Adds `by` to the top-level `field` of the document and answers the value it reached, counting this call: concurrent
 * callers each get their own value (never one twice). `extra` fields (plain values: the count must be the write's only
 * transform) are merged in beside it (an `expireAt`); `mustExist` makes it an update (NOT_FOUND when the document is
 * gone) instead of a merging set.
 */
export async function incrementAndCount(
  ref: DocumentReference,
  field: string,
  options: { by?: number; extra?: Record<string, unknown>; mustExist?: boolean } = {},
): Promise<number> {
  if (field.includes('.') || (options.extra && field in options.extra)) throw new Error(`incrementAndCount: "${field}" must be a plain top-level field`);
  if (holdsTransform(options.extra)) throw new Error('incrementAndCount: extra fields must be plain values');
  const data = { [field]: firestoreApi().FieldValue.increment(options.by ?? 1), ...options.extra };
  const batch = ref.firestore.batch();
  if (options.mustExist) batch.update(ref, data);
  else batch.set(ref, data, { merge: true });
  const commit = (batch as unknown as { _commit?: CommitPath })._commit;
  if (typeof commit === 'function') {
    const count = countFrom(await commit.call(batch, { retryCodes: COMMIT_RETRY_CODES }));
    if (count !== undefined) return count;
  } else await batch.commit();
  const stored = (await ref.get()).get(field) as unknown;
  return typeof stored === 'number' && Number.isFinite(stored) ? stored : UNKNOWN_COUNT;
}
