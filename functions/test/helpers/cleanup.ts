import type { DocumentReference, Query } from 'firebase-admin/firestore';
import { db } from '../../src/platform/core/firebase/firebase';

// A test that writes thousands of documents removes them when it is done. The Firestore emulator answers every query
// by reading its whole collection (production reads an index), so documents left behind make every later query of
// that collection slower for the rest of the run, in every test file: 10,000 inbox items cost each inbox read about
// 100 ms of the emulator's CPU.

const BATCH = 500;

/** Deletes the documents, 500 to a batch. */
export async function deleteAll(refs: readonly DocumentReference[]): Promise<void> {
  for (let i = 0; i < refs.length; i += BATCH) {
    const batch = db().batch();
    for (const ref of refs.slice(i, i + BATCH)) batch.delete(ref);
    await batch.commit();
  }
}

/** Deletes what the query finds (ids only are read); answers how many. */
export async function deleteMatching(query: Query): Promise<number> {
  const refs = (await query.select().get()).docs.map((d) => d.ref);
  await deleteAll(refs);
  return refs.length;
}
