import { ConflictError, NotFoundError } from '../../platform/core/errors/app-error';
import { inTransaction } from '../../platform/core/firebase/firebase';
import type { PageRequest } from '../../platform/kits/firestore/paginate';
import { iso } from '../../platform/kits/time/time';
import { rideView, type RideRecord } from './rides.model';
import { ridesRepo } from './rides.repo';
import { VN_OFFSET_MS, type RideViewer, type RidesCore } from './rides.context';

// Ratings both ways after a completed ride: the rider rates the driver, the driver the rider; each tally moves in the
// same transaction, and the rated party never sees who gave which stars.

export function createRideRatings({ now }: RidesCore) {
  async function rate(riderId: string, id: string, input: { stars: number; comment?: string | null }) {
    const at = now();
    const after = await inTransaction(async (tx) => {
      const ride = await ridesRepo.get(id, tx);
      if (!ride || ride.riderId !== riderId) throw new NotFoundError('No such ride');
      if (ride.status !== 'COMPLETED' || !ride.driverId)
        throw new ConflictError('Only a completed ride is rated', { status: ride.status }).withCode('RIDE_TRANSITION');
      const [given, current] = await Promise.all([ridesRepo.driverRatingOf(id, tx), ridesRepo.rating('driver', ride.driverId, tx)]);
      if (ride.rating || given) throw new ConflictError('The ride was rated already').withCode('RIDE_ALREADY_RATED');
      const rating = { stars: input.stars, comment: input.comment ?? null };
      // Kept apart from the ride document (which its driver reads): the driver sees only the tally and the comments.
      ridesRepo.recordDriverRating(tx, { rideId: id, riderId, driverId: ride.driverId, ...rating, ratedAt: at });
      ridesRepo.setRating(tx, 'driver', ride.driverId, { count: current.count + 1, sum: current.sum + input.stars }, at);
      return { ...ride, rating };
    });
    return rideView(after);
  }

  /**
   * Views of rides for a viewer: the rider (and an administrator) see the rating they gave; the driver never sees a
   * ride's stars or comment (anonymous to the rated party), not even on rides rated before ratings moved out.
   */
  async function viewsFor(viewer: RideViewer, records: RideRecord[]) {
    const ratedBy = (r: RideRecord) => r.status === 'COMPLETED' && (viewer.admin || r.riderId === viewer.userId);
    const given = await ridesRepo.driverRatingsOf(records.filter(ratedBy).map((r) => r.id));
    return records.map((r) => {
      const g = given.get(r.id);
      return { ...rideView(r), rating: !ratedBy(r) ? null : g ? { stars: g.stars, comment: g.comment } : r.rating };
    });
  }

  /** The driver rates the rider of a completed ride once; the rider's tally moves in the same transaction. */
  async function rateRider(driverId: string, id: string, input: { stars: number; comment?: string | null }) {
    const at = now();
    const record = await inTransaction(async (tx) => {
      const ride = await ridesRepo.get(id, tx);
      if (!ride || ride.driverId !== driverId) throw new NotFoundError('No such ride');
      if (ride.status !== 'COMPLETED') throw new ConflictError('Only a completed ride is rated', { status: ride.status }).withCode('RIDE_TRANSITION');
      const [given, current] = await Promise.all([ridesRepo.riderRatingGiven(id, tx), ridesRepo.rating('rider', ride.riderId, tx)]);
      if (given) throw new ConflictError('The rider was rated already').withCode('RIDE_ALREADY_RATED');
      const rating = { rideId: id, riderId: ride.riderId, driverId, stars: input.stars, comment: input.comment ?? null, ratedAt: at };
      ridesRepo.recordRiderRating(tx, rating);
      ridesRepo.setRating(tx, 'rider', ride.riderId, { count: current.count + 1, sum: current.sum + input.stars }, at);
      return rating;
    });
    return { rideId: record.rideId, stars: record.stars, comment: record.comment, ratedAt: iso(record.ratedAt) };
  }

  async function riderRating(riderId: string) {
    return { riderId, ...(await ridesRepo.ratingSummary('rider', riderId)) };
  }

  async function driverRating(driverId: string) {
    return { driverId, ...(await ridesRepo.ratingSummary('driver', driverId)) };
  }

  /** Ratings riders gave me, newest first: stars, comment and the day (Vietnam time), never the ride or the rider. */
  async function driverRatings(driverId: string, page: Pick<PageRequest, 'limit' | 'cursor'>) {
    const result = await ridesRepo.ratedFor(driverId, { ...page, query: 'rides:ratings', caller: driverId });
    return {
      items: result.items.map((r) => ({ stars: r.stars, comment: r.comment, ratedOn: iso(r.ratedAt + VN_OFFSET_MS).slice(0, 10) })),
      nextCursor: result.nextCursor,
    };
  }

  return { rate, viewsFor, rateRider, riderRating, driverRating, driverRatings };
}

export type RideRatings = ReturnType<typeof createRideRatings>;
