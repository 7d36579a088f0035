import type { DocumentReference, FirestoreDataConverter, Transaction } from 'firebase-admin/firestore';
import { db } from '../../core/firebase/firebase';
import { documentConverter, type LazySchema } from './documents';

// Typed collections. One converter maps a document to a plain record carrying its id and back (the id is
// never stored as a field), so repos read `T` without a cast of their own and write whole records safely.
// Partial updates (`update`, `set` with merge) name fields and stay the repo's business.

export interface Identified {
  id: string;
}

export function recordConverter<T extends Identified>(): FirestoreDataConverter<T> {
  return {
    toFirestore(record) {
      const { id: _id, ...data } = record as T;
      return data as FirebaseFirestore.DocumentData;
    },
    fromFirestore(snap) {
      return { ...snap.data(), id: snap.id } as T;
    },
  };
}

/** A collection whose documents read as `T` (with `id`); a listened document's schema converts its times. */
export function typedCollection<T extends Identified>(name: string, document?: LazySchema) {
  return db()
    .collection(name)
    .withConverter(document ? documentConverter<T>(document, { id: true }) : recordConverter<T>());
}

/** A collection of records that are not keyed by an `id` field (the document id is derived from their fields). */
export function plainCollection<T extends FirebaseFirestore.DocumentData>(name: string, document?: LazySchema) {
  return db()
    .collection(name)
    .withConverter<T>(
      document
        ? documentConverter<T>(document, { id: false })
        : { toFirestore: (record) => record as FirebaseFirestore.DocumentData, fromFirestore: (snap) => snap.data() as T },
    );
}

/** One record, read in the transaction when one is given (repos take `tx?` instead of get/txGet pairs). */
export async function readRecord<T>(ref: DocumentReference<T>, tx?: Transaction): Promise<T | undefined> {
  const snap = tx ? await tx.get(ref) : await ref.get();
  return snap.exists ? snap.data() : undefined;
}

/** Values an `in` (or `array-contains-any`) filter takes at most. */
export const IN_QUERY_MAX = 30;

/** `values` cut into lists of IN_QUERY_MAX: one `in` query each. */
export function inQueryChunks<T>(values: readonly T[]): T[][] {
  return Array.from({ length: Math.ceil(values.length / IN_QUERY_MAX) }, (_, i) => values.slice(i * IN_QUERY_MAX, (i + 1) * IN_QUERY_MAX));
}
