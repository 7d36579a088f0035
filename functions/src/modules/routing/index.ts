// Public face of the routing module: the router of a configuration (rides' quotes and ETAs go through it).
import type { AppConfig } from '../../platform/core/config';
import type { Router } from './routing.service';

export type { RouteEstimate, RideClass } from './routing.model';
export { RIDE_CLASSES, haversineM } from './routing.model';
export type { Router } from './routing.service';

export function routerOf(config: Readonly<AppConfig>): Router {
  return (require('./routing.wiring') as typeof import('./routing.wiring')).routerFor(config);
}
