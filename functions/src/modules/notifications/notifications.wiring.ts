import type { AppConfig } from '../../platform/core/config';
import { isProduction, perConfig } from '../../platform/core/config';
import { runsAsCloudFunction } from '../../platform/core/message-queue/message-queue';
import { logger } from '../../platform/core/logging/logger';
import { createPushTransport } from '../../platform/core/push/transport';
import { enqueue } from '../../platform/kits/tasks/tasks';
import { runBroadcast } from './broadcast.job';
import { createHub, type Hub } from './hub';
import { BROADCAST_QUEUE } from './notifications.model';

// Services of the notifications module, built once per configuration; routes, tasks and other modules
// (through index.ts) take them from here.

// One hub per configuration, its push transport chosen by PUSH_TRANSPORT (auto: FCM in production, else the outbox).
export const notificationHub: (config: Readonly<AppConfig>) => Hub = perConfig((config) =>
  createHub({ transport: createPushTransport(config.PUSH_TRANSPORT, isProduction(config)), serverSecret: config.JWT_SECRET }),
);

export interface BroadcastScheduler {
  /** Asks for a runner of the broadcast (at least once). */
  schedule(broadcastId: string, pagesDone: number): Promise<void>;
}

// Cloud Tasks when running as a Cloud Function (the Tasks emulator locally); a plain server runs the job
// in its own process. Task ids follow the progress (and the minute, for a replayed request), so a
// duplicated enqueue of the same step is dropped by Cloud Tasks and a stalled job can be resumed.
export const broadcastSchedulerFor = perConfig((config: Readonly<AppConfig>): BroadcastScheduler => {
  if (!runsAsCloudFunction()) {
    return {
      async schedule(broadcastId) {
        void runBroadcast(broadcastId, { hub: notificationHub(config) }).catch((err: Error) =>
          logger.error('broadcast failed', { broadcastId, error: err.message }),
        );
      },
    };
  }
  return {
    schedule: (broadcastId, pagesDone) => enqueue(BROADCAST_QUEUE, { broadcastId }, { id: `${broadcastId}-p${pagesDone}-m${Math.floor(Date.now() / 60_000)}` }),
  };
});
