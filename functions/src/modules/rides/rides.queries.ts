import { ConflictError, NotFoundError } from '../../platform/core/errors/app-error';
import type { PageRequest } from '../../platform/kits/firestore/paginate';
import { distanceMeters } from '../../platform/kits/geo/geo';
import { iso } from '../../platform/kits/time/time';
import { openContextConversation } from '../chat';
import { dispatchPool } from '../driver';
import { ACTIVE_STATUSES, RIDE_CLASSES, RIDE_STATUSES, rideChatContext, rideView, type RideClass, type RideRecord } from './rides.model';
import { ridesRepo } from './rides.repo';
import { VN_OFFSET_MS, type RideViewer, type RidesCore, type VisibleRide } from './rides.context';
import type { RideRatings } from './rides.ratings';
import type { RideSettlement } from './rides.settlement';

// What riders, drivers and administrators read about rides: a ride, the current one, lists, the driver's position,
// the leg to draw, the ride's chat, a driver's daily summary, the administrators' list and dashboard.

interface QueryParts {
  visible: VisibleRide;
  ratings: Pick<RideRatings, 'viewsFor'>;
  settlement: Pick<RideSettlement, 'earningsOf'>;
}

export function createRideQueries({ deps, now }: RidesCore, { visible, ratings: { viewsFor }, settlement: { earningsOf } }: QueryParts) {
  async function driverLocation(viewer: { userId: string; admin: boolean }, id: string) {
    const ride = await visible(id, viewer);
    if (!ride.driverId || !ACTIVE_STATUSES.includes(ride.status))
      throw new ConflictError('The ride has no driver on the way', { status: ride.status }).withCode('RIDE_TRANSITION');
    const loc = await dispatchPool.location(ride.driverId);
    if (!loc || loc.lat === null || loc.lng === null) return { rideId: id, driverId: ride.driverId, location: null };
    return {
      rideId: id,
      driverId: ride.driverId,
      location: { lat: loc.lat, lng: loc.lng, heading: loc.heading, speedKmh: loc.speedKmh, at: iso(loc.locatedAt ?? loc.updatedAt) },
      distanceToPickupM: Math.round(distanceMeters({ lat: loc.lat, lng: loc.lng }, ride.pickup)),
    };
  }

  async function current(riderId: string) {
    const id = await ridesRepo.activeOf(riderId);
    if (!id) return { ride: null };
    const ride = await visible(id, { userId: riderId, admin: false });
    return { ride: ACTIVE_STATUSES.includes(ride.status) ? rideView(ride) : null };
  }

  async function driverCurrent(driverId: string) {
    const loc = await dispatchPool.location(driverId);
    if (!loc?.currentRideId) return { ride: null };
    const ride = await visible(loc.currentRideId, { userId: driverId, admin: false }).catch(() => undefined);
    return { ride: ride && ACTIVE_STATUSES.includes(ride.status) ? rideView(ride) : null };
  }

  async function list(filter: { riderId?: string; driverId?: string }, page: Pick<PageRequest, 'limit' | 'cursor'>, caller: string) {
    const result = await ridesRepo.list(filter, { ...page, query: `rides:${filter.riderId ? 'rider' : 'driver'}`, caller });
    const views = await viewsFor({ userId: caller, admin: false }, result.items);
    return {
      items: result.items.map((r, i) => ({
        ...views[i],
        ...(filter.driverId ? { earnings: r.status === 'COMPLETED' && r.fare !== null ? earningsOf(r.fare) : 0 } : {}),
      })),
      nextCursor: result.nextCursor,
    };
  }

  async function events(viewer: { userId: string; admin: boolean }, id: string) {
    await visible(id, viewer);
    return { items: await ridesRepo.events(id) };
  }

  /** The leg to draw now: the driver to the pickup while they come, else pickup to drop-off. */
  async function leg(viewer: { userId: string; admin: boolean }, id: string) {
    const ride = await visible(id, viewer);
    const coming = ride.driverId && (ride.status === 'CONFIRMED' || ride.status === 'ARRIVED') ? await dispatchPool.location(ride.driverId) : undefined;
    const from = coming && coming.lat !== null && coming.lng !== null ? { lat: coming.lat, lng: coming.lng } : ride.pickup;
    const to = coming ? ride.pickup : ride.dropoff;
    const route = await deps.router.route(from, to, ride.rideClass, now());
    return {
      rideId: id,
      leg: coming ? ('TO_PICKUP' as const) : ('TRIP' as const),
      from: { lat: from.lat, lng: from.lng },
      to: { lat: to.lat, lng: to.lng },
      ...route,
    };
  }

  /** The rider and the current driver's conversation about the ride (one per driver; closed when the ride ends). */
  async function chat(viewer: { userId: string; admin: boolean }, id: string) {
    const ride = await visible(id, { ...viewer, admin: false });
    if (!ride.driverId || !ACTIVE_STATUSES.includes(ride.status))
      throw new ConflictError('Chat is open while a driver is on the ride', { status: ride.status }).withCode('RIDE_TRANSITION');
    if (viewer.userId !== ride.riderId && viewer.userId !== ride.driverId) throw new NotFoundError('No such ride');
    const conversationId = await openContextConversation(rideChatContext(ride.id, ride.driverId), [
      { userId: ride.riderId, surface: 'CON' },
      { userId: ride.driverId, surface: 'DRV' },
    ]);
    return { rideId: id, conversationId };
  }

  /** A driver's completed rides per day (Vietnam time) over the last `days`: count, fares, my earnings. */
  async function driverSummary(driverId: string, days: number) {
    const at = now();
    const dayOf = (t: number) => iso(t + VN_OFFSET_MS).slice(0, 10);
    const todayStart = Date.parse(`${dayOf(at)}T00:00:00Z`) - VN_OFFSET_MS;
    const from = todayStart - (days - 1) * 86_400_000;
    const rides = await ridesRepo.completedBy(driverId, from);
    const byDay = new Map<string, { date: string; rides: number; fares: number; earnings: number; drivenM: number }>();
    for (let d = 0; d < days; d++) {
      const date = dayOf(from + d * 86_400_000);
      byDay.set(date, { date, rides: 0, fares: 0, earnings: 0, drivenM: 0 });
    }
    for (const r of rides) {
      const day = byDay.get(dayOf(r.completedAt!));
      if (!day || r.fare === null) continue;
      day.rides += 1;
      day.fares += r.fare;
      day.earnings += earningsOf(r.fare);
      day.drivenM += r.drivenM ?? 0;
    }
    const list = [...byDay.values()];
    const sum = (k: 'rides' | 'fares' | 'earnings' | 'drivenM') => list.reduce((a, d) => a + d[k], 0);
    return {
      driverId,
      currency: 'VND' as const,
      from: iso(from),
      days: list,
      totals: { rides: sum('rides'), fares: sum('fares'), earnings: sum('earnings'), drivenM: sum('drivenM') },
    };
  }

  /** Rides by status booked in the last `hours`, rides under way and free drivers by class now (ADMIN dashboard). */
  async function adminStats(hours: number) {
    const since = now() - hours * 3_600_000;
    const [byStatus, free] = await Promise.all([
      Promise.all(RIDE_STATUSES.map(async (status) => [status, await ridesRepo.countSince(status, since)] as const)),
      Promise.all(RIDE_CLASSES.map(async (c) => [c, await dispatchPool.countAvailable(c)] as const)),
    ]);
    const counts = Object.fromEntries(byStatus) as Record<(typeof RIDE_STATUSES)[number], number>;
    const booked = byStatus.reduce((a, [, n]) => a + n, 0);
    return {
      since: iso(since),
      booked,
      byStatus: counts,
      matchRate: booked === 0 ? null : Math.round(((booked - counts.NO_DRIVER) / booked) * 1000) / 1000,
      freeDrivers: Object.fromEntries(free) as Record<RideClass, number>,
    };
  }

  async function adminList(
    filter: { status?: RideRecord['status']; riderId?: string; driverId?: string },
    page: Pick<PageRequest, 'limit' | 'cursor'>,
    adminId: string,
  ) {
    const result = await ridesRepo.list(filter, { ...page, query: `rides:admin:${JSON.stringify(filter)}`, caller: adminId });
    return { items: result.items.map(rideView), nextCursor: result.nextCursor };
  }

  /** One ride as its viewer may see it (the rating only to its rider and administrators). */
  const get = async (viewer: RideViewer, id: string) => (await viewsFor(viewer, [await visible(id, viewer)]))[0];

  return { get, driverLocation, current, driverCurrent, list, events, leg, chat, driverSummary, adminStats, adminList };
}
