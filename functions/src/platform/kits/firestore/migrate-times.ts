import type { DocumentSnapshot, Query, QueryDocumentSnapshot } from 'firebase-admin/firestore';
import { db, firestoreApi, isFailedPrecondition, isNotFound } from '../../core/firebase/firebase';
import { logger } from '../../core/logging/logger';
import { pendingTimeFields, timePaths, type ListenedDocument } from './documents';

export interface MigrationProgress {
  document: string;
  pages: number;
  read: number;
  converted: number;
  /** Documents left as they are: a time no Timestamp can hold, or a write that failed (each logged with its path). */
  skipped: number;
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

// One document that cannot be converted is logged and counted; the run goes on with the others.
function skip(path: string, err: unknown): void {
  logger.warn('migrate-listened-times: document skipped', { path, reason: err instanceof Error ? err.message : String(err) });
}

/** A page's documents still holding old times: each updated only if nobody wrote it since it was read. */
async function convertPage(
  document: ListenedDocument,
  docs: QueryDocumentSnapshot[],
  matches: (snap: DocumentSnapshot) => boolean,
): Promise<{ converted: number; skipped: number }> {
  let [converted, skipped] = [0, 0];
  const pending: Array<{ doc: QueryDocumentSnapshot; changes: FirebaseFirestore.DocumentData }> = [];
  for (const doc of docs.filter(matches)) {
    try {
      const changes = pendingTimeFields(document.schema, doc.data());
      if (Object.keys(changes).length > 0) pending.push({ doc, changes });
    } catch (err) {
      skip(doc.ref.path, err);
      skipped += 1;
    }
  }
  const writer = db().bulkWriter({ throttling: false });
  const retry: QueryDocumentSnapshot[] = [];
  await Promise.all([
    ...pending.map(({ doc, changes }) =>
      writer.update(doc.ref, changes, { lastUpdateTime: doc.updateTime }).then(
        () => void (converted += 1),
        (err: { code?: number }) => {
          // Written or deleted since the read (a live ride, a message): read again below.
          if (isFailedPrecondition(err) || isNotFound(err)) retry.push(doc);
          else {
            skip(doc.ref.path, err);
            skipped += 1;
          }
        },
      ),
    ),
    writer.close(),
  ]);
  for (const doc of retry) {
    try {
      const moved = await db().runTransaction(async (tx) => {
        const fresh = await tx.get(doc.ref);
        if (!fresh.exists) return false;
        const changes = pendingTimeFields(document.schema, fresh.data()!);
        if (Object.keys(changes).length === 0) return false;
        tx.update(doc.ref, changes);
        return true;
      });
      if (moved) converted += 1;
    } catch (err) {
      skip(doc.ref.path, err);
      skipped += 1;
    }
  }
  return { converted, skipped };
}

/**
 * One-shot and idempotent (`node scripts/stack.mjs migrate-listened-times`): every time field of the documents apps
 * listen to that is still stored as epoch ms (or, in realtime event data, an ISO string) becomes a Firestore
 * Timestamp. Pages of `pageSize` documents in id order; a document written meanwhile is converted from its fresh
 * state. A document holding a time no Timestamp can hold (or whose write fails) is logged and counted as skipped,
 * and the run goes on; collections marked `unmigrated` are left out. A second run converts nothing. Run it once the code that writes Timestamps is deployed everywhere (its
 * readers take both forms meanwhile; an instance of the old code would write epoch ms again).
 */
export async function migrateListenedTimes(
  documents: readonly ListenedDocument[],
  onProgress?: (progress: MigrationProgress) => void,
  pageSize = 300,
): Promise<MigrationProgress[]> {
  const results: MigrationProgress[] = [];
  for (const document of documents) {
    const scan = document.unmigrated === undefined && timePaths(document.schema()).length > 0 ? scanOf(document.path) : undefined;
    if (!scan) continue;
    const progress: MigrationProgress = { document: document.path, pages: 0, read: 0, converted: 0, skipped: 0 };
    let after: QueryDocumentSnapshot | undefined;
    for (;;) {
      const snap = await (after ? scan.query.startAfter(after) : scan.query).limit(pageSize).get();
      if (snap.empty) break;
      after = snap.docs[snap.size - 1];
      progress.pages += 1;
      progress.read += snap.size;
      const page = await convertPage(document, snap.docs, scan.matches);
      progress.converted += page.converted;
      progress.skipped += page.skipped;
      onProgress?.({ ...progress });
      if (snap.size < pageSize) break;
    }
    results.push(progress);
  }
  return results;
}
