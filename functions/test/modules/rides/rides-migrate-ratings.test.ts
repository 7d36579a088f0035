import { randomUUID } from 'node:crypto';
import { migrateRideRatings } from '../../../src/modules/rides/rides.migrate-ratings';
import { db } from '../../../src/platform/core/firebase/firebase';
import { requireEmulators } from '../../helpers/emulators';
import { RIDES, RIDE_DRIVER_RATINGS } from '../../../src/modules/rides/rides.collections';

beforeAll(requireEmulators);

// The one-shot move of riders' ratings off ride documents (issue 29 security review, item 9): idempotent.

const id = () => `R${randomUUID().replace(/-/g, '').slice(0, 24)}`;
const ride = (rideId: string, rating: { stars: number; comment: string | null } | null, driverId: string | null = 'D-mig') =>
  db()
    .collection(RIDES)
    .doc(rideId)
    .set({
      id: rideId,
      riderId: 'U-mig',
      driverId,
      status: 'COMPLETED',
      fare: null,
      // The deployed ride trigger reads the quote's fare for the completion notice of a ride it sees created COMPLETED.
      quote: { fare: 50_000 },
      holdPaymentId: null,
      paymentId: null,
      cancellationFee: 0,
      rating,
      completedAt: 1_700_000_000_000,
      updatedAt: 1_700_000_000_000,
    });

describe('migrate:ride-ratings', () => {
  it('moves ratings to ride_driver_ratings and deletes them from the ride; keeps an existing record; a second run changes nothing', async () => {
    const [a, b, kept, noDriver, unrated] = [id(), id(), id(), id(), id()];
    await Promise.all([
      ride(a, { stars: 5, comment: 'Tốt' }),
      ride(b, { stars: 2, comment: null }),
      ride(kept, { stars: 1, comment: 'old copy' }),
      ride(noDriver, { stars: 4, comment: null }, null),
      ride(unrated, null),
    ]);
    await db()
      .collection(RIDE_DRIVER_RATINGS)
      .doc(kept)
      .set({ rideId: kept, riderId: 'U-mig', driverId: 'D-mig', stars: 3, comment: 'the real one', ratedAt: 1 });
    const progress: number[] = [];
    const first = await migrateRideRatings((pages) => progress.push(pages));
    expect(first).toMatchObject({ moved: 2, removed: 1, skipped: 1 });
    expect(progress.length).toBeGreaterThan(0);
    expect((await db().collection(RIDE_DRIVER_RATINGS).doc(a).get()).data()).toEqual({
      rideId: a,
      riderId: 'U-mig',
      driverId: 'D-mig',
      stars: 5,
      comment: 'Tốt',
      ratedAt: 1_700_000_000_000,
    });
    expect((await db().collection(RIDE_DRIVER_RATINGS).doc(b).get()).get('stars')).toBe(2);
    expect((await db().collection(RIDE_DRIVER_RATINGS).doc(kept).get()).get('comment')).toBe('the real one');
    for (const r of [a, b, kept]) expect((await db().collection(RIDES).doc(r).get()).data()).not.toHaveProperty('rating');
    expect((await db().collection(RIDES).doc(noDriver).get()).get('rating')).toEqual({ stars: 4, comment: null });
    expect((await db().collection(RIDES).doc(unrated).get()).get('rating')).toBeNull();
    expect(await migrateRideRatings()).toMatchObject({ moved: 0, removed: 0, skipped: 1 });
  });
});
