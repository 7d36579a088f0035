import { holdsPermission } from '../../platform/core/auth/roles';
import { ForbiddenError } from '../../platform/core/errors/app-error';
import type { Place, RideActor, RideClass, RidePaymentMethod, RideRecord, RideTimeouts } from './rides.model';
import type { paymentCommands } from '../payments';
import type { Router } from '../routing';

// What every part of the rides service shares: its configuration, its clock, and who may act on a ride.

/** Where the server must see the driver before money depends on what the driver says (config, see README). */
export interface Geofence {
  arriveRadiusM: number;
  completeRadiusM: number;
  /** Share of the quoted distance, in basis points, that counts as a trip done far from the drop-off. */
  completeMinDrivenBp: number;
  positionFreshSec: number;
}

/** The service's configuration, apart from the timers (rides.deadlines). */
export interface RidesDeps {
  router: Router;
  payments: ReturnType<typeof paymentCommands>;
  /** Signs quotes (derived from the server secret). */
  quoteKey: Buffer;
  searchRadiusM: number;
  commissionBp: number;
  cancelFee: number;
  cancelGraceSec: number;
  /** A rider's cancellation pays the fee only once the driver has waited this long at the pickup. */
  cancelWaitSec: number;
  timeouts: RideTimeouts;
  geofence: Geofence;
  holdExpirySec: number;
  disputeWindowDays: number;
  now?: () => number;
}

/** The configuration and the clock, handed to each part of the service. */
export interface RidesCore {
  deps: RidesDeps;
  now: () => number;
}

/** A ride a viewer may see (its rider, its driver, an administrator), expired first when overdue. */
export type VisibleRide = (id: string, viewer: RideViewer) => Promise<RideRecord>;

export interface CreateRide {
  pickup: Place;
  dropoff: Place;
  vehicleType: RideClass;
  paymentMethod: RidePaymentMethod;
  quoteId?: string;
  note?: string | null;
}

/** Who is acting: an administrator counts as one only while holding rides.manage (else a plain party). */
export interface RideViewer {
  userId: string;
  admin: boolean;
}

/** The viewer of a request: ADMIN with the rides.manage permission, or a party like anyone else. */
export function rideViewerOf(auth: { userId: string; roles: readonly string[]; permissions?: string[] }): RideViewer {
  return { userId: auth.userId, admin: auth.roles.includes('ADMIN') && holdsPermission(auth.permissions, 'rides.manage') };
}

/** An administrator who is the ride's rider or driver acts as that party only (never as its administrator). */
export function rolesOf(ride: RideRecord, actor: RideViewer): RideActor[] {
  const party = ride.riderId === actor.userId || ride.driverId === actor.userId;
  return [
    ...(ride.riderId === actor.userId ? (['rider'] as const) : []),
    ...(ride.driverId === actor.userId ? (['driver'] as const) : []),
    ...(actor.admin && !party ? (['admin'] as const) : []),
  ];
}

export function notOwnRide(ride: Pick<RideRecord, 'riderId' | 'driverId'>, adminId: string): void {
  if (ride.riderId === adminId || ride.driverId === adminId)
    throw new ForbiddenError('Administrators do not manage a ride they are the rider or driver of; another administrator does').withCode('RIDE_SELF_MANAGE');
}

export const CELL_PRECISION = 5; // ≈ 4.9 km × 4.9 km: the neighbourhood surge is computed over
export const VN_OFFSET_MS = 7 * 3_600_000; // Asia/Ho_Chi_Minh has no daylight saving
