import type { AppConfig } from '../../platform/config';
import { isProduction } from '../../platform/config';
import { createPushTransport } from '../../platform/push/transport';
import { createHub, type Hub } from './hub';

let shared: Hub | undefined;
// One hub per process, its push transport chosen by PUSH_TRANSPORT (auto: FCM in production, else the outbox).
export function notificationHub(config: Readonly<AppConfig>): Hub {
  shared ??= createHub({ transport: createPushTransport(config.PUSH_TRANSPORT, isProduction(config)) });
  return shared;
}
