import type { AppContext } from '../../platform/core/http/module';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { EtaSchema, RouteRequestSchema, RouteSchema } from './routing.schemas';
import { routerFor } from './routing.wiring';

export function routingRoutes({ config }: AppContext): AnyRoute[] {
  const router = () => routerFor(config);
  const tag = 'routing' as const;
  return [
    defineRoute({
      method: 'post',
      path: '/routing/eta',
      operationId: 'computeEta',
      tag,
      summary: 'Road distance and travel time between two points',
      description: 'From the offline estimator (straight line × 1.35, speed by vehicle class and rush hour) or OSRM when ROUTING_PROVIDER=osrm.',
      auth: [],
      errors: [422, 503],
      codes: ['ROUTING_NO_ROUTE', 'ROUTING_UNAVAILABLE'],
      request: { body: RouteRequestSchema },
      response: { description: 'Distance (m) and duration (s).', schema: EtaSchema },
      handler: async ({ body }) => {
        const { distanceM, durationSec, provider } = await router().route(body.from, body.to, body.vehicleType, Date.now());
        return { distanceM, durationSec, provider };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/routing/route',
      operationId: 'computeRoute',
      tag,
      summary: 'The route between two points, with its polyline',
      auth: [],
      errors: [422, 503],
      codes: ['ROUTING_NO_ROUTE', 'ROUTING_UNAVAILABLE'],
      request: { body: RouteRequestSchema },
      response: { description: 'Distance, duration and the encoded polyline to draw.', schema: RouteSchema },
      handler: ({ body }) => router().route(body.from, body.to, body.vehicleType, Date.now()),
    }),
  ];
}
