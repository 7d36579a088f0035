import { FieldPath, FieldValue } from 'firebase-admin/firestore';
import { db } from '../../platform/core/firebase/firebase';
import { DRIVER_LOCATIONS } from './driver.collections';

const PAGE = 400;

// One-shot and idempotent: `jobCooldownUntil` left on driver location documents (a rider or a job's customer may read
// those) from before cooldowns moved to the server-only `driver_job_give_ups`. One field deleted per document, in
// batches: no read-modify-write, so position reports landing meanwhile are kept. Each page is the first documents
// still holding the field (deleted ones leave the query); a second run finds none.
export async function dropRetiredCooldowns(onProgress?: (pages: number, cleared: number) => void) {
  let pages = 0;
  let cleared = 0;
  for (;;) {
    const snap = await db().collection(DRIVER_LOCATIONS).orderBy('jobCooldownUntil').orderBy(FieldPath.documentId()).limit(PAGE).get();
    if (snap.empty) break;
    const batch = db().batch();
    for (const doc of snap.docs) batch.update(doc.ref, { jobCooldownUntil: FieldValue.delete() });
    await batch.commit();
    pages += 1;
    cleared += snap.size;
    onProgress?.(pages, cleared);
  }
  return { pages, cleared };
}
