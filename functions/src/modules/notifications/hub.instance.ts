import type { AppConfig } from '../../platform/config';
import { isProduction, perConfig } from '../../platform/config';
import { createPushTransport } from '../../platform/push/transport';
import { createHub, type Hub } from './hub';

// One hub per configuration, its push transport chosen by PUSH_TRANSPORT (auto: FCM in production, else the outbox).
export const notificationHub: (config: Readonly<AppConfig>) => Hub = perConfig((config) =>
  createHub({ transport: createPushTransport(config.PUSH_TRANSPORT, isProduction(config)) }),
);
