import { choice, defineSwitches, optionalUrl, type ConfigOf } from '../../platform/core/config/switches';

// The routing module's switches: which router, and where OSRM answers.
export const routingSwitches = defineSwitches(
  {
    ROUTING_PROVIDER: {
      schema: choice(['estimator', 'osrm'], 'estimator'),
      effect: '`estimator` (straight line × 1.35, speed by vehicle class) or `osrm`: routes through an OSRM server (`OSRM_URL` required then)',
    },
    OSRM_URL: { schema: optionalUrl(), effect: 'the OSRM server of `ROUTING_PROVIDER=osrm`' },
  },
  {
    check: (values) => (values.ROUTING_PROVIDER === 'osrm' && !values.OSRM_URL ? ['OSRM_URL is required when ROUTING_PROVIDER=osrm'] : []),
  },
);

declare module '../../platform/core/config/switches' {
  interface ModuleConfig extends ConfigOf<typeof routingSwitches> {}
}
