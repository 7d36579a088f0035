import type { DocumentReference } from 'firebase-admin/firestore';
import { db, firestoreApi } from '../../core/firebase/firebase';

// A counter that must know its count after adding to it (a rate limit's window, an OTP's attempts). Firestore answers
// an increment's result in the commit (WriteResult.transformResults), but the SDK's public WriteResult leaves it out,
// so reading it back would be a second round trip. This commits through the batch's own commit path (`_commit`,
// internal to @google-cloud/firestore, which its bulk writer and transactions use too) and takes the count from the
// answer; an SDK that no longer has it, or answers no transform result, gets the read back as before. counters.test.ts
// fails when the one-round-trip path is gone, so an upgrade that loses it is seen.

/** The commit's answer as far as it is read here (the Firestore v1 CommitResponse). */
interface CommitResponse {
  writeResults?: Array<{ transformResults?: Array<{ integerValue?: string | number | null; doubleValue?: number | null }> }>;
}
type CommitPath = (options: { retryCodes: number[] }) => Promise<CommitResponse>;

// The public WriteBatch.commit's retries: ABORTED (a transaction holding the document) and the commit's configured
// RESOURCE_EXHAUSTED and UNAVAILABLE.
const COMMIT_RETRY_CODES = [10, 8, 14];

/** The new value of the counter, when the commit answered it. */
function countFrom(response: CommitResponse): number | undefined {
  const value = response.writeResults?.[0]?.transformResults?.[0];
  const n = value?.integerValue ?? value?.doubleValue;
  return n === undefined || n === null ? undefined : Number(n);
}

/**
 * Adds `by` to `field` of the document and answers the value it reached, counting this call: concurrent callers each
 * get their own value (a permutation of the counts, never one twice). `extra` fields are merged in beside it (an
 * `expireAt`); `mustExist` makes it an update (NOT_FOUND when the document is gone) instead of a merging set.
 */
export async function incrementAndCount(
  ref: DocumentReference,
  field: string,
  options: { by?: number; extra?: Record<string, unknown>; mustExist?: boolean } = {},
): Promise<number> {
  const { FieldValue } = firestoreApi();
  const data = { ...options.extra, [field]: FieldValue.increment(options.by ?? 1) };
  const batch = db().batch();
  if (options.mustExist) batch.update(ref, data);
  else batch.set(ref, data, { merge: true });
  const commit = (batch as unknown as { _commit?: CommitPath })._commit;
  if (typeof commit === 'function') {
    const count = countFrom(await commit.call(batch, { retryCodes: COMMIT_RETRY_CODES }));
    if (count !== undefined) return count;
  } else await batch.commit();
  return ((await ref.get()).get(field) as number | undefined) ?? options.by ?? 1;
}
