import { booleanSwitch, defineSwitches, type ConfigOf } from '../../platform/core/config/switches';

// The health module's switch: the detailed administrator diagnostics in production.
export const healthSwitches = defineSwitches({
  HEALTH_DETAIL_ENABLED: { schema: booleanSwitch(false), effect: 'in production, allows `/health/admin/*` for ADMIN tokens' },
});

declare module '../../platform/core/config/switches' {
  interface ModuleConfig extends ConfigOf<typeof healthSwitches> {}
}
