import { firestoreApi } from '../../core/firebase/firebase';
// The time policy. Documents apps read with snapshot listeners (the collections firestore.rules open to clients,
// each with its schema in platform/kits/firestore/documents.ts) store every time as a Firestore Timestamp; their repos'
// converters hand the code epoch ms. Internal records (never read by a client) keep epoch milliseconds, with
// Timestamps only where Firestore needs them (TTL fields `expireAt`, rules comparing with request.time). The API
// answers ISO 8601 strings: `iso` takes both forms.

/** A time as stored: epoch ms, or a Firestore Timestamp. */
export type StoredTime = number | { toMillis(): number };

/** Epoch ms of a stored time (epoch ms, or a Timestamp). */
export const millisOf = (t: StoredTime) => (typeof t === 'number' ? t : t.toMillis());

/** An ISO 8601 string for a stored time (epoch ms or a Firestore Timestamp). */
export function iso(t: StoredTime): string {
  return new Date(millisOf(t)).toISOString();
}

/** `iso`, with null (or 0, or a missing value) as null. */
export function isoOrNull(t: StoredTime | null | undefined): string | null {
  return t === null || t === undefined || t === 0 ? null : iso(t);
}

/** A Firestore Timestamp for a time in epoch ms (TTL fields `expireAt`, times a listened document carries in free-form data). */
export function timestampOf(ms: number) {
  return firestoreApi().Timestamp.fromMillis(ms);
}
