import { perConfig, type AppConfig } from '../../platform/core/config';
import { estimatorRouter, osrmRouter, type Router } from './routing.service';

// The router of this configuration: ROUTING_PROVIDER=osrm with OSRM_URL, else the offline estimator.
export const routerFor = perConfig((config: Readonly<AppConfig>): Router =>
  config.ROUTING_PROVIDER === 'osrm' ? osrmRouter(config.OSRM_URL!) : estimatorRouter,
);
