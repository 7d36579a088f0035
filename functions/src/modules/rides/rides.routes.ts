import type { AppContext } from '../../platform/core/http/module';
import type { AnyRoute } from '../../platform/core/http/route';
import { ridesAdminRoutes } from './rides.admin.routes';
import { ridesDriverRoutes } from './rides.driver.routes';
import { ridesRiderRoutes } from './rides.rider.routes';

// The rides API: the rider's, the driver's and the administrators' routes, each in its file.

export function ridesRoutes(ctx: AppContext): AnyRoute[] {
  // The administrators' first: their static paths (/rides/admin, /rides/admin/stats…) before the rider's /rides/:id,
  // which would take "admin" for a ride id.
  return [...ridesAdminRoutes(ctx), ...ridesRiderRoutes(ctx), ...ridesDriverRoutes(ctx)];
}
