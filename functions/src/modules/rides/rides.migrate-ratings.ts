import { FieldPath, FieldValue, type QueryDocumentSnapshot } from 'firebase-admin/firestore';
import { db } from '../../platform/core/firebase/firebase';
import { millisOf, type StoredTime } from '../../platform/kits/time/time';
import { RIDE_DRIVER_RATINGS, RIDES } from './rides.model';
import type { DriverRatingRecord } from './rides.repo';

const PAGE = 200;

// One-shot and idempotent: riders' ratings still on ride documents (written before ratings moved out, which the
// ride's driver can read) move to `ride_driver_ratings/{rideId}` and leave the ride. The driver's tally
// (`driver_ratings`) counted them when they were given, so it is not touched. A rating already in
// `ride_driver_ratings` wins (the ride's copy is only deleted); one without a driver is left and counted as skipped.
// A second run finds nothing to move.
export async function migrateRideRatings(onProgress?: (pages: number, moved: number, skipped: number) => void) {
  let pages = 0;
  let moved = 0;
  let removed = 0;
  let skipped = 0;
  let after: QueryDocumentSnapshot | undefined;
  for (;;) {
    let query = db().collection(RIDES).where('rating', '!=', null).orderBy('rating').orderBy(FieldPath.documentId()).limit(PAGE);
    if (after) query = query.startAfter(after);
    const snap = await query.get();
    if (snap.empty) break;
    after = snap.docs[snap.docs.length - 1];
    pages += 1;
    for (const doc of snap.docs) {
      const outcome = await db().runTransaction(async (tx) => {
        const [ride, given] = await Promise.all([tx.get(doc.ref), tx.get(db().collection(RIDE_DRIVER_RATINGS).doc(doc.id))]);
        const rating = ride.get('rating') as { stars: number; comment: string | null } | null | undefined;
        const driverId = ride.get('driverId') as string | null | undefined;
        const riderId = ride.get('riderId') as string | undefined;
        if (!rating) return 'gone' as const;
        if (!given.exists) {
          if (!driverId || !riderId) return 'skipped' as const;
          const record: DriverRatingRecord = {
            rideId: doc.id,
            riderId,
            driverId,
            stars: rating.stars,
            comment: rating.comment ?? null,
            ratedAt: millisOf((ride.get('completedAt') as StoredTime | null) ?? (ride.get('updatedAt') as StoredTime)),
          };
          tx.create(given.ref, record);
        }
        tx.update(doc.ref, { rating: FieldValue.delete() });
        return given.exists ? ('removed' as const) : ('moved' as const);
      });
      if (outcome === 'moved') moved += 1;
      if (outcome === 'removed') removed += 1;
      if (outcome === 'skipped') skipped += 1;
    }
    onProgress?.(pages, moved + removed, skipped);
  }
  return { pages, moved, removed, skipped };
}
