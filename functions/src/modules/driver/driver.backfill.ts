import { db } from '../../platform/core/firebase/firebase';
import { DEFAULT_CAPABILITIES } from './driver.model';
import { driverRepo } from './driver.repo';

// One-shot and idempotent: approved drivers without capabilities get the default set
// (RIDE, COURIER, DELIVERY). A second run finds nothing to change.
export async function backfillDriverCapabilities(onProgress?: (scanned: number, updated: number) => void) {
  let scanned = 0;
  let updated = 0;
  for await (const page of driverRepo.withoutCapabilities()) {
    scanned += 1;
    if (page.length > 0) {
      const batch = db().batch();
      for (const doc of page) batch.update(doc.ref, { capabilities: [...DEFAULT_CAPABILITIES], updatedAt: Date.now() });
      await batch.commit();
      updated += page.length;
    }
    onProgress?.(scanned, updated);
  }
  return { pages: scanned, updated, capabilities: DEFAULT_CAPABILITIES };
}
