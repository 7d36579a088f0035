import { defineSwitches, positiveInt, type ConfigOf } from '../../platform/core/config/switches';

// The support module's switches, validated with the platform's at every cold start (docs/configuration.md lists them).
export const supportSwitches = defineSwitches({
  SUPPORT_AUTO_CLOSE_SEC: {
    schema: positiveInt(7 * 24 * 3_600, 30 * 24 * 3_600, 60),
    effect: 'how long a RESOLVED ticket waits before it CLOSES by itself (its task, or the next read): its owner may reopen it until then (7 days unless set)',
  },
});

declare module '../../platform/core/config/switches' {
  interface ModuleConfig extends ConfigOf<typeof supportSwitches> {}
}
