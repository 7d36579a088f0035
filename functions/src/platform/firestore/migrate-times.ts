import type { DocumentSnapshot, Query, QueryDocumentSnapshot } from 'firebase-admin/firestore';
import { db, firestoreApi } from '../firebase/firebase';
import { pendingTimeFields, timePaths, type ListenedDocument } from './documents';

export interface MigrationProgress {
  document: string;
  pages: number;
  read: number;
  converted: number;
}

/** The documents of a path pattern (`rides/{rideId}`, `conversations/{id}/messages/{messageId}`), in id order. */
function scanOf(path: string): { query: Query; matches: (snap: DocumentSnapshot) => boolean } | undefined {
  const segments = path.split('/');
  const isVariable = (s: string) => s.startsWith('{') && s.endsWith('}');
  const { FieldPath } = firestoreApi();
  if (!isVariable(segments[segments.length - 1])) return undefined; // one named document (meta/seed): no times to move
  const collection = segments[segments.length - 2];
  const query = segments.length === 2 ? db().collection(collection) : db().collectionGroup(collection);
  const matches = (snap: DocumentSnapshot) => {
    const parts = snap.ref.path.split('/');
    return parts.length === segments.length && segments.every((s, i) => isVariable(s) || s === parts[i]);
  };
  return { query: query.orderBy(FieldPath.documentId()), matches };
}

/** A page's documents still holding old times: each updated only if nobody wrote it since it was read. */
async function convertPage(document: ListenedDocument, docs: QueryDocumentSnapshot[], matches: (snap: DocumentSnapshot) => boolean): Promise<number> {
  let converted = 0;
  const pending = docs.filter(matches).map((doc) => ({ doc, changes: pendingTimeFields(document.schema, doc.data()) })).filter((p) => Object.keys(p.changes).length > 0);
  const writer = db().bulkWriter({ throttling: false });
  const retry: QueryDocumentSnapshot[] = [];
  await Promise.all([
    ...pending.map(({ doc, changes }) =>
      writer.update(doc.ref, changes, { lastUpdateTime: doc.updateTime }).then(
        () => void (converted += 1),
        (err: { code?: number }) => {
          // Written or deleted since the read (a live ride, a message): read again below.
          if (err.code === 9 || err.code === 5) retry.push(doc);
          else throw err;
        },
      ),
    ),
    writer.close(),
  ]);
  for (const doc of retry) {
    const moved = await db().runTransaction(async (tx) => {
      const fresh = await tx.get(doc.ref);
      if (!fresh.exists) return false;
      const changes = pendingTimeFields(document.schema, fresh.data()!);
      if (Object.keys(changes).length === 0) return false;
      tx.update(doc.ref, changes);
      return true;
    });
    if (moved) converted += 1;
  }
  return converted;
}

/**
 * One-shot and idempotent (`node scripts/stack.mjs migrate-listened-times`): every time field of the documents apps
 * listen to that is still stored as epoch ms (or, in realtime event data, an ISO string) becomes a Firestore
 * Timestamp. Pages of `pageSize` documents in id order; a document written meanwhile is converted from its fresh
 * state. A second run converts nothing. Run it once the code that writes Timestamps is deployed everywhere (its
 * readers take both forms meanwhile; an instance of the old code would write epoch ms again).
 */
export async function migrateListenedTimes(documents: readonly ListenedDocument[], onProgress?: (progress: MigrationProgress) => void, pageSize = 300): Promise<MigrationProgress[]> {
  const results: MigrationProgress[] = [];
  for (const document of documents) {
    const scan = timePaths(document.schema()).length > 0 ? scanOf(document.path) : undefined;
    if (!scan) continue;
    const progress: MigrationProgress = { document: document.path, pages: 0, read: 0, converted: 0 };
    let after: QueryDocumentSnapshot | undefined;
    for (;;) {
      const snap = await (after ? scan.query.startAfter(after) : scan.query).limit(pageSize).get();
      if (snap.empty) break;
      after = snap.docs[snap.size - 1];
      progress.pages += 1;
      progress.read += snap.size;
      progress.converted += await convertPage(document, snap.docs, scan.matches);
      onProgress?.({ ...progress });
      if (snap.size < pageSize) break;
    }
    results.push(progress);
  }
  return results;
}
