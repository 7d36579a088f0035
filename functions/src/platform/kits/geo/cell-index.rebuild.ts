import { db, firestoreApi, inTransaction } from '../../core/firebase/firebase';
import { cellIndexOf } from '../firestore/collections';
import { writeCellIndex, type CellDocument } from './cell-index';

/** Records read per page (then checked cell by cell, a transaction per cell, a few side by side). */
const PAGE = 200;
const SIDE_BY_SIDE = 8;

export interface CellIndexProgress {
  collection: string;
  pages: number;
  read: number;
  /** Records added to or taken out of the index. */
  fixed: number;
}

/**
 * Brings a collection's cell index in step with its records (a deploy's one-shot for records written before the
 * index, and idempotent: a second run changes nothing). A page's records are checked in a transaction per cell that
 * reads the cell and them: an ACTIVE record its cell does not list is added, a listed one no longer ACTIVE is taken
 * out, so a record changed by the API meanwhile is never counted twice.
 */
export async function rebuildCellIndex(collection: string, onProgress?: (p: CellIndexProgress) => void): Promise<CellIndexProgress> {
  const { FieldPath } = firestoreApi();
  const progress: CellIndexProgress = { collection, pages: 0, read: 0, fixed: 0 };
  const records = db().collection(collection);
  const cells = db().collection(cellIndexOf(collection));
  let last: string | undefined;
  for (;;) {
    let query = records.orderBy(FieldPath.documentId()).select('status', 'geohash').limit(PAGE);
    if (last !== undefined) query = query.startAfter(last);
    const page = await query.get();
    if (page.empty) break;
    const ids = page.docs.map((d) => d.id);
    // One transaction per cell: records sharing a cell would otherwise contend on it.
    const byCell = new Map<string, string[]>();
    for (const d of page.docs) {
      const geohash = d.get('geohash') as unknown;
      if (typeof geohash !== 'string' || geohash.length < 7) continue;
      byCell.set(geohash.slice(0, 6), [...(byCell.get(geohash.slice(0, 6)) ?? []), d.id]);
    }
    const groups = [...byCell];
    for (let i = 0; i < groups.length; i += SIDE_BY_SIDE) {
      const fixed = await Promise.all(
        groups.slice(i, i + SIDE_BY_SIDE).map(([hash, members]) =>
          inTransaction(async (tx) => {
            const [cell, ...snaps] = await tx.getAll(cells.doc(hash), ...members.map((id) => records.doc(id)));
            const listed = (cell.data() as CellDocument | undefined)?.e ?? {};
            const changes = snaps.flatMap((record) => {
              const geohash = record.get('geohash') as unknown;
              // A record moved to another cell since the page was read is left to that cell's run (or the API's).
              if (typeof geohash !== 'string' || geohash.slice(0, 6) !== hash) return [];
              // Listed in its cell, perhaps at an older geohash of it (a move the index did not follow).
              const at = listed[record.id];
              const change = { id: record.id, before: typeof at === 'string' ? at : undefined, after: record.get('status') === 'ACTIVE' ? geohash : undefined };
              return change.before === change.after ? [] : [change];
            });
            writeCellIndex(tx, collection, changes);
            return changes.length;
          }),
        ),
      );
      progress.fixed += fixed.reduce((a, b) => a + b, 0);
    }
    progress.pages += 1;
    progress.read += ids.length;
    last = ids[ids.length - 1];
    onProgress?.({ ...progress });
    if (ids.length < PAGE) break;
  }
  return progress;
}
