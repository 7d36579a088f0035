import { firestoreApi } from './firebase/firebase';
// The time policy: records keep epoch milliseconds; the API answers ISO 8601 strings. Firestore Timestamps
// only where Firestore or its clients need them (TTL fields, rules comparing with request.time, documents
// apps read with listeners): `timestampOf`, and `iso` accepts them too.

type Stored = number | { toMillis(): number };

const millisOf = (t: Stored) => (typeof t === 'number' ? t : t.toMillis());

/** An ISO 8601 string for a stored time (epoch ms or a Firestore Timestamp). */
export function iso(t: Stored): string {
  return new Date(millisOf(t)).toISOString();
}

/** `iso`, with null (or 0, or a missing value) as null. */
export function isoOrNull(t: Stored | null | undefined): string | null {
  return t === null || t === undefined || t === 0 ? null : iso(t);
}

/** A Firestore Timestamp for a time in epoch ms (TTL fields: `expireAt`). */
export function timestampOf(ms: number) {
  return firestoreApi().Timestamp.fromMillis(ms);
}
