import type { AppConfig } from '../../platform/core/config';
import { getBroadcast, runBroadcast } from './broadcast.job';
import { broadcastSchedulerFor, notificationHub } from './notifications.wiring';

// How long one task delivery works before it hands the rest to a new task (function timeout: 540 s).
const TASK_BUDGET_MS = 240_000;

/** The `broadcastJob` task: runs pages for a while, then hands over to a new task until the job is done. */
export async function onBroadcastTask({ broadcastId }: { broadcastId: string }, config: Readonly<AppConfig>): Promise<void> {
  const outcome = await runBroadcast(broadcastId, { hub: notificationHub(config), budgetMs: TASK_BUDGET_MS });
  if (outcome === 'more') await broadcastSchedulerFor(config).schedule(broadcastId, (await getBroadcast(broadcastId)).pages);
}
