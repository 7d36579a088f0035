import type { Transaction } from 'firebase-admin/firestore';
import { db } from '../../platform/core/firebase/firebase';
import { paginate, type Page, type PageRequest } from '../../platform/kits/firestore/paginate';
import { bothForms, storedFields } from '../../platform/kits/firestore/documents';
import { plainCollection, readRecord, typedCollection } from '../../platform/kits/firestore/records';
import { readHistory } from '../../platform/kits/state-machine/state-machine';
import { iso } from '../../platform/kits/time/time';
import {
  DRIVER_RATINGS,
  RIDER_ACTIVE,
  RIDER_RATINGS,
  RIDES,
  RIDE_DISPUTES,
  RIDE_DRIVER_RATINGS,
  RIDE_RIDER_RATINGS,
  rideDocument,
  type RideRecord,
  type RideStatus,
} from './rides.model';

const rides = () => typedCollection<RideRecord>(RIDES, rideDocument);

/** `ride_sos/{id}`: an emergency alert about a ride, for the administrators' queue. */
export interface SosRecord {
  id: string;
  rideId: string;
  raisedBy: string;
  role: 'RIDER' | 'DRIVER';
  message: string | null;
  location: { lat: number; lng: number } | null;
  status: 'OPEN' | 'RESOLVED';
  note: string | null;
  resolvedBy: string | null;
  resolvedAt: number | null;
  createdAt: number;
}
/** `ride_disputes/{rideId}`: the rider's dispute of a completed ride, or of a cancellation fee (one per ride). */
export interface DisputeRecord {
  id: string;
  rideId: string;
  riderId: string;
  driverId: string | null;
  reason: string;
  message: string | null;
  fare: number | null;
  status: 'OPEN' | 'RESOLVED';
  /** The administrator's decision (absent on disputes opened before disputes were resolved here). */
  outcome?: 'REJECTED' | 'REFUNDED' | null;
  refundAmount?: number | null;
  refundPaymentId?: string | null;
  note?: string | null;
  resolvedBy?: string | null;
  resolvedAt?: number | null;
  createdAt: number;
}
/** `ride_driver_ratings/{rideId}`: the rider's rating of the driver (never on the ride document the driver reads). */
export interface DriverRatingRecord {
  rideId: string;
  riderId: string;
  driverId: string;
  stars: number;
  comment: string | null;
  ratedAt: number;
}
const driverRatings = () => plainCollection<DriverRatingRecord>(RIDE_DRIVER_RATINGS);
/** Star tallies: riders rate drivers, drivers rate riders. */
type RatingBook = 'driver' | 'rider';
const RATING_BOOKS: Record<RatingBook, string> = { driver: DRIVER_RATINGS, rider: RIDER_RATINGS };
const newestFirst = [{ field: 'createdAt', direction: 'desc' as const }];

export const ridesRepo = {
  ref: (id: string) => db().collection(RIDES).doc(id),
  get: (id: string, tx?: Transaction) => readRecord(rides().doc(id), tx),
  create(tx: Transaction, record: RideRecord): void {
    tx.create(rides().doc(record.id), record);
  },
  save(tx: Transaction, next: RideRecord): void {
    const { id: _id, riderId: _r, createdAt: _c, ...changed } = next;
    tx.update(rides().doc(next.id), storedFields(rideDocument, changed));
  },
  /** Only the named fields, inside the caller's transaction. */
  patch(tx: Transaction, id: string, fields: Partial<Omit<RideRecord, 'id' | 'riderId' | 'createdAt'>>): void {
    tx.update(rides().doc(id), storedFields(rideDocument, fields));
  },
  async update(id: string, fields: Partial<RideRecord>): Promise<void> {
    await rides().doc(id).update(storedFields(rideDocument, fields));
  },
  /** The rider's active ride id (read in the booking transaction). */
  async activeOf(riderId: string, tx?: Transaction): Promise<string | null> {
    const ref = db().collection(RIDER_ACTIVE).doc(riderId);
    const snap = tx ? await tx.get(ref) : await ref.get();
    return (snap.get('rideId') as string | undefined) ?? null;
  },
  setActive(tx: Transaction, riderId: string, rideId: string | null, now: number): void {
    tx.set(db().collection(RIDER_ACTIVE).doc(riderId), { rideId, updatedAt: now });
  },
  list(filter: { riderId?: string; driverId?: string; status?: RideStatus }, page: PageRequest): Promise<Page<RideRecord>> {
    let query: FirebaseFirestore.Query<RideRecord> = rides();
    if (filter.riderId) query = query.where('riderId', '==', filter.riderId);
    if (filter.driverId) query = query.where('driverId', '==', filter.driverId);
    if (filter.status) query = query.where('status', '==', filter.status);
    return paginate(query, newestFirst, page, (d) => d.data());
  },
  async findByShareHash(tokenHash: string): Promise<RideRecord | undefined> {
    const snap = await rides().where('share.tokenHash', '==', tokenHash).limit(1).get();
    return snap.docs[0]?.data();
  },
  /** A driver's completed rides since a moment (at most a month of them: the summary's range). */
  async completedBy(driverId: string, since: number): Promise<RideRecord[]> {
    // Time bounds run once per stored form (epoch ms before migrate-listened-times, Timestamps after).
    // Both forms read: delete after migrate:listened-times has run in every project.
    const snaps = await Promise.all(
      bothForms(since).map((bound) =>
        rides()
          .where('driverId', '==', driverId)
          .where('status', '==', 'COMPLETED')
          .where('completedAt', '>=', bound)
          .orderBy('completedAt')
          .limit(2_000)
          .get(),
      ),
    );
    return snaps
      .flatMap((snap) => snap.docs.map((d) => d.data()))
      .sort((a, b) => (a.completedAt ?? 0) - (b.completedAt ?? 0))
      .slice(0, 2_000);
  },
  ratedFor(driverId: string, page: PageRequest): Promise<Page<DriverRatingRecord>> {
    return paginate(driverRatings().where('driverId', '==', driverId), [{ field: 'ratedAt', direction: 'desc' as const }], page, (d) => d.data());
  },
  /** The rider's rating of this ride's driver (read in the rating transaction when `tx` is given). */
  driverRatingOf: (rideId: string, tx?: Transaction) => readRecord(driverRatings().doc(rideId), tx),
  /** The riders' ratings of these rides, by ride id (one read for a page of rides). */
  async driverRatingsOf(rideIds: string[]): Promise<Map<string, DriverRatingRecord>> {
    if (rideIds.length === 0) return new Map();
    const snaps = await db().getAll(...rideIds.map((id) => driverRatings().doc(id)));
    return new Map(snaps.filter((s) => s.exists).map((s) => [s.id, s.data() as DriverRatingRecord]));
  },
  recordDriverRating(tx: Transaction, record: DriverRatingRecord): void {
    tx.create(driverRatings().doc(record.rideId), record);
  },
  // countSince, demandInCell: both forms read; delete after migrate:listened-times has run in every project.
  async countSince(status: RideStatus, since: number): Promise<number> {
    const counts = await Promise.all(
      bothForms(since).map(async (bound) => (await rides().where('status', '==', status).where('createdAt', '>=', bound).count().get()).data().count),
    );
    return counts[0] + counts[1];
  },
  /** Rides asked for in a geohash cell since a moment (the demand side of surge pricing). */
  async demandInCell(cell: string, since: number): Promise<number> {
    const counts = await Promise.all(
      bothForms(since).map(async (bound) => (await rides().where('pickupCell', '==', cell).where('createdAt', '>=', bound).count().get()).data().count),
    );
    return counts[0] + counts[1];
  },
  async rating(book: RatingBook, id: string, tx: Transaction): Promise<{ count: number; sum: number }> {
    const snap = await tx.get(db().collection(RATING_BOOKS[book]).doc(id));
    return { count: (snap.get('count') as number | undefined) ?? 0, sum: (snap.get('sum') as number | undefined) ?? 0 };
  },
  setRating(tx: Transaction, book: RatingBook, id: string, value: { count: number; sum: number }, now: number): void {
    tx.set(db().collection(RATING_BOOKS[book]).doc(id), { ...value, average: Math.round((value.sum / value.count) * 100) / 100, updatedAt: now });
  },
  async ratingSummary(book: RatingBook, id: string): Promise<{ average: number | null; count: number }> {
    const snap = await db().collection(RATING_BOOKS[book]).doc(id).get();
    return { average: (snap.get('average') as number | undefined) ?? null, count: (snap.get('count') as number | undefined) ?? 0 };
  },
  async averageRating(driverId: string): Promise<number | null> {
    return (await this.ratingSummary('driver', driverId)).average;
  },
  /** Whether the driver rated the rider of this ride already (read in the rating transaction). */
  async riderRatingGiven(rideId: string, tx: Transaction): Promise<boolean> {
    return (await tx.get(db().collection(RIDE_RIDER_RATINGS).doc(rideId))).exists;
  },
  recordRiderRating(
    tx: Transaction,
    record: { rideId: string; riderId: string; driverId: string; stars: number; comment: string | null; ratedAt: number },
  ): void {
    tx.create(db().collection(RIDE_RIDER_RATINGS).doc(record.rideId), record);
  },
  /** The ride's moves, oldest first (platform/kits/state-machine's history). */
  async events(id: string) {
    const events = await readHistory<RideStatus | 'NEW', string>(db().collection(RIDES).doc(id));
    return events.map((e) => ({ action: e.action, from: e.from, to: e.to, by: e.by, at: iso(e.at), reason: e.reason ?? null }));
  },
  /** The ride's dispute, read in the caller's transaction. */
  disputeOf: (rideId: string, tx?: Transaction) => readRecord(typedCollection<DisputeRecord>(RIDE_DISPUTES).doc(rideId), tx),
  patchDispute(tx: Transaction, rideId: string, fields: Partial<Omit<DisputeRecord, 'id'>>): void {
    tx.update(db().collection(RIDE_DISPUTES).doc(rideId), fields);
  },
  createDispute(tx: Transaction, record: DisputeRecord): void {
    const { id, ...data } = record;
    tx.create(db().collection(RIDE_DISPUTES).doc(id), data);
  },
  listDisputes(page: PageRequest): Promise<Page<DisputeRecord>> {
    return paginate(typedCollection<DisputeRecord>(RIDE_DISPUTES), newestFirst, page, (d) => d.data());
  },
};
