import { RATE_LIMIT_COLLECTION } from '../../kits/firestore/collections';
import { db, firestoreApi, isNotFound } from '../firebase/firebase';
import type { RateLimitStore } from './rate-limit';
import { timestampOf } from '../../kits/time/time';
import { incrementAndCount } from '../../kits/counters/increment-and-count';

// One document per scope, subject and window; `expireAt` is the field of the collection's TTL policy.
// An atomic increment whose commit answers the count it reached (one round trip): each hit gets its own count, and
// no request waits on a transaction lock.
export function firestoreRateLimitStore(): RateLimitStore {
  return {
    increment: (key, expiresAtMs) =>
      incrementAndCount(db().collection(RATE_LIMIT_COLLECTION).doc(key), 'count', { extra: { expireAt: timestampOf(expiresAtMs) } }),
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
