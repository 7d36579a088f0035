import { defineSwitches, positiveInt, type ConfigOf } from '../../platform/core/config/switches';

// The social module's switches.
export const socialSwitches = defineSwitches({
  SOCIAL_FANOUT_MAX: {
    schema: positiveInt(5_000, 1_000_000, 1),
    effect: "followers past which an author's posts are merged into feeds at read time instead of written into each follower's feed (20 under `npm test`)",
  },
});

declare module '../../platform/core/config/switches' {
  interface ModuleConfig extends ConfigOf<typeof socialSwitches> {}
}
