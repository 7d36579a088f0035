import { ServiceUnavailableError, UnprocessableError } from '../../platform/core/errors/app-error';
import type { LatLng } from '../../platform/kits/geo/geo';
import { logger } from '../../platform/core/logging/logger';
import { estimateRoute, type RouteEstimate, type RideClass } from './routing.model';

export interface Router {
  route(from: LatLng, to: LatLng, vehicle: RideClass, at: number): Promise<RouteEstimate>;
}

export const estimatorRouter: Router = {
  route: async (from, to, vehicle, at) => estimateRoute(from, to, vehicle, at),
};

/**
 * OSRM's HTTP route service (`/route/v1/driving/{lng},{lat};{lng},{lat}?overview=full&geometries=polyline`): road
 * distance, duration and geometry. OSRM has no motorbike profile: its car duration stands for every class.
 */
export function osrmRouter(baseUrl: string, timeoutMs = 5_000): Router {
  return {
    async route(from, to) {
      const url = `${baseUrl}/route/v1/driving/${from.lng},${from.lat};${to.lng},${to.lat}?overview=full&geometries=polyline&alternatives=false&steps=false`;
      let body: { code?: string; routes?: Array<{ distance: number; duration: number; geometry: string }> };
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
        body = (await res.json()) as typeof body;
      } catch (err) {
        logger.warn('OSRM unreachable', { error: (err as Error).message });
        throw new ServiceUnavailableError('The routing service is not answering').withCode('ROUTING_UNAVAILABLE');
      }
      const best = body.routes?.[0];
      if (body.code === 'NoRoute') throw new UnprocessableError('No road route between these points').withCode('ROUTING_NO_ROUTE');
      if (body.code !== 'Ok' || !best)
        throw new ServiceUnavailableError(`The routing service answered ${body.code ?? 'nothing'}`).withCode('ROUTING_UNAVAILABLE');
      return { distanceM: Math.round(best.distance), durationSec: Math.round(best.duration), polyline: best.geometry, provider: 'osrm' };
    },
  };
}
