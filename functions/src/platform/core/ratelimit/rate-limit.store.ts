import { RATE_LIMIT_COLLECTION } from '../../kits/firestore/collections';
import { db, firestoreApi, isNotFound } from '../firebase/firebase';
import type { RateLimitStore } from './rate-limit';
import { timestampOf } from '../../kits/time/time';

// One document per scope, subject and window; `expireAt` is the field of the collection's TTL policy.
// An atomic increment, then a read: under a burst the read may include later hits, so the limiter
// errs on refusing, and no request waits on a transaction lock.
export function firestoreRateLimitStore(): RateLimitStore {
  return {
    async increment(key, expiresAtMs) {
      const { FieldValue } = firestoreApi();
      const ref = db().collection(RATE_LIMIT_COLLECTION).doc(key);
      await ref.set({ count: FieldValue.increment(1), expireAt: timestampOf(expiresAtMs) }, { merge: true });
      return ((await ref.get()).get('count') as number | undefined) ?? 1;
    },
    // An update, not a set: a counter its TTL removed meanwhile stays removed.
    async giveBack(key) {
      const { FieldValue } = firestoreApi();
      await db()
        .collection(RATE_LIMIT_COLLECTION)
        .doc(key)
        .update({ count: FieldValue.increment(-1) })
        .catch((err: unknown) => {
          if (!isNotFound(err)) throw err;
        });
    },
  };
}
