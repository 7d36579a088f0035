import { choice, defineSwitches, type ConfigOf } from '../../platform/core/config/switches';

// The notifications module's switch: how pushes leave.
export const notificationsSwitches = defineSwitches({
  PUSH_TRANSPORT: {
    schema: choice(['auto', 'fcm', 'outbox'], 'auto'),
    effect: '`fcm` (firebase-admin messaging), `outbox` (write each message to `push_outbox` and the log), `auto`: FCM in production, else the outbox',
  },
});

declare module '../../platform/core/config/switches' {
  interface ModuleConfig extends ConfigOf<typeof notificationsSwitches> {}
}
