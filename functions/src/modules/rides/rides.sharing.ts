import { randomBytes } from 'node:crypto';
import { ConflictError, NotFoundError } from '../../platform/core/errors/app-error';
import { stableId } from '../../platform/kits/ids/stable-id';
import { iso } from '../../platform/kits/time/time';
import { dispatchPool } from '../driver';
import { ACTIVE_STATUSES } from './rides.model';
import { ridesRepo } from './rides.repo';
import type { RidesCore, VisibleRide } from './rides.context';

// The rider's trip link for people they trust: a random token, of which only the hash is stored.

const SHARE_TTL_MS = 4 * 3_600_000;
const SHARE_AFTER_END_MS = 3_600_000;
/** The stored form of a link's token (sha256 of the scope and the token, in hex: the field documents hold). */
const shareHashOf = (token: string) => stableId({ scope: 'ride-share', key: token, encoding: 'hex', length: 64 });

export function createRideSharing({ now }: RidesCore, visible: VisibleRide) {
  /**
   * A link for people the rider trusts: a fresh random token (the previous one stops working) that shows the trip
   * without signing in until it ends (and for an hour after), never who the rider is. Only its hash is stored.
   */
  async function share(riderId: string, id: string) {
    const ride = await visible(id, { userId: riderId, admin: false });
    if (ride.riderId !== riderId) throw new NotFoundError('No such ride');
    if (!ACTIVE_STATUSES.includes(ride.status)) throw new ConflictError('Only a ride under way is shared', { status: ride.status }).withCode('RIDE_TRANSITION');
    const token = randomBytes(24).toString('base64url');
    const expiresAt = now() + SHARE_TTL_MS;
    await ridesRepo.update(id, { share: { tokenHash: shareHashOf(token), expiresAt } });
    return { rideId: id, token, path: `/rides/shared/${token}`, expiresAt: iso(expiresAt) };
  }

  async function unshare(riderId: string, id: string) {
    const ride = await visible(id, { userId: riderId, admin: false });
    if (ride.riderId !== riderId) throw new NotFoundError('No such ride');
    if (ride.share) await ridesRepo.update(id, { share: null });
  }

  async function shared(token: string) {
    const ride = await ridesRepo.findByShareHash(shareHashOf(token));
    const at = now();
    const open = ride?.share && ride.share.expiresAt > at && (ride.endedAt === null || at - ride.endedAt < SHARE_AFTER_END_MS);
    if (!ride || !open) throw new NotFoundError('This trip link has expired or was turned off');
    const loc = ride.driverId && ACTIVE_STATUSES.includes(ride.status) ? await dispatchPool.location(ride.driverId) : undefined;
    return {
      status: ride.status,
      vehicleType: ride.rideClass,
      pickup: ride.pickup,
      dropoff: ride.dropoff,
      driver: ride.driver ? { name: ride.driver.name, vehicle: ride.driver.vehicle } : null,
      driverLocation:
        loc && loc.lat !== null && loc.lng !== null ? { lat: loc.lat, lng: loc.lng, heading: loc.heading, at: iso(loc.locatedAt ?? loc.updatedAt) } : null,
      etaToPickupSec: ride.status === 'CONFIRMED' ? ride.etaToPickupSec : null,
      updatedAt: iso(ride.updatedAt),
    };
  }

  return { share, unshare, shared };
}
