import { perConfig, type AppConfig } from '../../platform/config';
import { runsAsCloudFunction } from '../../platform/delivery/delivery';
import { firebaseApp } from '../../platform/firebase/firebase';
import { logger } from '../../platform/logging/logger';
import { BROADCAST_FUNCTION, getBroadcast, runBroadcast } from './broadcast.job';
import { notificationHub } from './hub.instance';

// How long one task delivery works before it hands the rest to a new task (function timeout: 540 s).
const TASK_BUDGET_MS = 240_000;

export interface BroadcastScheduler {
  /** Asks for a runner of the broadcast (at least once). */
  schedule(broadcastId: string, pagesDone: number): Promise<void>;
}

const alreadyQueued = (err: unknown) => /already[ -]exists/i.test(`${(err as { code?: string }).code ?? ''} ${(err as Error).message ?? ''}`);

// Cloud Tasks when running as a Cloud Function (the Tasks emulator locally); a plain server runs the job
// in its own process. Task ids follow the progress (and the minute, for a replayed request), so a
// duplicated enqueue of the same step is dropped by Cloud Tasks and a stalled job can be resumed.
export const broadcastSchedulerFor = perConfig((config: Readonly<AppConfig>): BroadcastScheduler => {
  if (!runsAsCloudFunction()) {
    return {
      async schedule(broadcastId) {
        void runBroadcast(broadcastId, { hub: notificationHub(config) }).catch((err: Error) => logger.error('broadcast failed', { broadcastId, error: err.message }));
      },
    };
  }
  return {
    async schedule(broadcastId, pagesDone) {
      const { getFunctions } = require('firebase-admin/functions') as typeof import('firebase-admin/functions');
      const id = `${broadcastId}-p${pagesDone}-m${Math.floor(Date.now() / 60_000)}`;
      await getFunctions(firebaseApp())
        .taskQueue(BROADCAST_FUNCTION)
        .enqueue({ broadcastId }, { id })
        .catch((err: unknown) => {
          if (!alreadyQueued(err)) throw err;
        });
    },
  };
});

/** The `broadcastJob` task: runs pages for a while, then hands over to a new task until the job is done. */
export async function onBroadcastTask(broadcastId: string, config: Readonly<AppConfig>): Promise<void> {
  const outcome = await runBroadcast(broadcastId, { hub: notificationHub(config), budgetMs: TASK_BUDGET_MS });
  if (outcome === 'more') await broadcastSchedulerFor(config).schedule(broadcastId, (await getBroadcast(broadcastId)).pages);
}
