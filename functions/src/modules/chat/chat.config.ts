import { choice, defineSwitches, positiveInt, type ConfigOf } from '../../platform/core/config/switches';

// The chat module's switches: how long a call rings, and how others add a user to a group by default.
export const chatSwitches = defineSwitches({
  CALL_RING_TIMEOUT_SEC: { schema: positiveInt(30, 120, 2), effect: 'seconds a call rings before it becomes MISSED (10 under `npm test`)' },
  CHAT_GROUP_ADDS_DEFAULT: {
    schema: choice(['INVITATION', 'DIRECT'], 'INVITATION'),
    effect:
      'how others add a user to a group while the user has not set `groupAdds` (`PUT /chat/preferences`): `INVITATION` (they accept or decline first; the safe default) or `DIRECT` (member at once)',
  },
});

declare module '../../platform/core/config/switches' {
  interface ModuleConfig extends ConfigOf<typeof chatSwitches> {}
}
