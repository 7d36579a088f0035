import type { QueryDocumentSnapshot } from 'firebase-admin/firestore';
import { db, firestoreApi, inTransaction } from '../../core/firebase/firebase';
import { cellIndexOf } from '../firestore/collections';
import { isIndexable, isLeafCell, leafCellOf, writeCellIndex, type CellDocument, type IndexedChange } from './cell-index';

/** Documents read per page (then checked cell by cell, a transaction per cell, a few side by side). */
const PAGE = 200;
const SIDE_BY_SIDE = 4;

export interface CellIndexProgress {
  collection: string;
  /** Pass 1, the index's cells; pass 2, the records. */
  pass: 1 | 2;
  pages: number;
  read: number;
  /** Entries added to or taken out of the index. */
  fixed: number;
}

/** Where a record should be listed: its geohash while ACTIVE. */
const wantedAt = (snap: { exists: boolean; get(field: string): unknown }) => {
  const geohash = snap.get('geohash');
  return snap.exists && snap.get('status') === 'ACTIVE' && isIndexable(geohash) ? geohash : undefined;
};

/** Every document of a collection in id order, a page at a time. */
async function eachPage(collection: string, fields: string[], onPage: (docs: QueryDocumentSnapshot[]) => Promise<void>) {
  const { FieldPath } = firestoreApi();
  let last: string | undefined;
  for (;;) {
    let query = db()
      .collection(collection)
      .orderBy(FieldPath.documentId())
      .select(...fields)
      .limit(PAGE);
    if (last !== undefined) query = query.startAfter(last);
    const page = await query.get();
    if (!page.empty) await onPage(page.docs);
    if (page.size < PAGE) return;
    last = page.docs[page.size - 1].id;
  }
}

/** Runs `fix` for each group, a few side by side, and sums the entries they fixed. */
async function sideBySide<G>(groups: readonly G[], fix: (group: G) => Promise<number>): Promise<number> {
  let fixed = 0;
  for (let i = 0; i < groups.length; i += SIDE_BY_SIDE) fixed += (await Promise.all(groups.slice(i, i + SIDE_BY_SIDE).map(fix))).reduce((a, b) => a + b, 0);
  return fixed;
}

/**
 * Brings a collection's cell index in step with its records (a deploy's one-shot for records written before the
 * index; idempotent: a second run changes nothing). Pass 1 takes out every entry whose record is gone, no longer
 * ACTIVE or elsewhere (moved behind the index's back: a rollback, another writer); pass 2 adds every ACTIVE record
 * its cell does not list. Each fix is a transaction over one cell and its records, so a record the API changes
 * meanwhile is never counted twice.
 */
export async function rebuildCellIndex(collection: string, onProgress?: (p: CellIndexProgress) => void): Promise<CellIndexProgress[]> {
  const records = db().collection(collection);
  const cells = db().collection(cellIndexOf(collection));
  const sweep: CellIndexProgress = { collection, pass: 1, pages: 0, read: 0, fixed: 0 };
  await eachPage(cellIndexOf(collection), ['e'], async (docs) => {
    const leaves = docs.filter((d) => isLeafCell(d.id) && Object.keys((d.data() as CellDocument).e ?? {}).length > 0);
    sweep.fixed += await sideBySide(leaves, (leaf) =>
      inTransaction(async (tx) => {
        const [cell] = await tx.getAll(cells.doc(leaf.id));
        const listed = Object.entries((cell.data() as CellDocument | undefined)?.e ?? {});
        if (listed.length === 0) return 0;
        const snaps = await tx.getAll(...listed.map(([id]) => records.doc(id)));
        const changes: IndexedChange[] = listed.flatMap(([id, at], i) => (wantedAt(snaps[i]) === at ? [] : [{ id, before: at }]));
        writeCellIndex(tx, collection, changes);
        return changes.length;
      }),
    );
    sweep.pages += 1;
    sweep.read += docs.length;
    onProgress?.({ ...sweep });
  });
  const add: CellIndexProgress = { collection, pass: 2, pages: 0, read: 0, fixed: 0 };
  await eachPage(collection, ['status', 'geohash'], async (docs) => {
    // One transaction per cell: records sharing a cell would otherwise contend on it.
    const byCell = new Map<string, string[]>();
    for (const d of docs) {
      const at = wantedAt(d);
      if (at) byCell.set(leafCellOf(at), [...(byCell.get(leafCellOf(at)) ?? []), d.id]);
    }
    add.fixed += await sideBySide([...byCell], ([hash, members]) =>
      inTransaction(async (tx) => {
        const [cell, ...snaps] = await tx.getAll(cells.doc(hash), ...members.map((id) => records.doc(id)));
        const listed = (cell.data() as CellDocument | undefined)?.e ?? {};
        const changes: IndexedChange[] = snaps.flatMap((record) => {
          const at = wantedAt(record);
          // A record moved to another cell or no longer ACTIVE since the page was read: the API wrote its index.
          if (!at || leafCellOf(at) !== hash || listed[record.id] === at) return [];
          return [{ id: record.id, before: listed[record.id], after: at }];
        });
        writeCellIndex(tx, collection, changes);
        return changes.length;
      }),
    );
    add.pages += 1;
    add.read += docs.length;
    onProgress?.({ ...add });
  });
  return [sweep, add];
}
