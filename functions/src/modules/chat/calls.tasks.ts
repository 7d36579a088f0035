import type { AppConfig } from '../../platform/config';
import { firebaseApp } from '../../platform/firebase/firebase';
import { logger } from '../../platform/logging/logger';
import { notificationHub } from '../notifications/hub.instance';
import type { RingScheduler } from './calls.service';
import { createCallsService } from './calls.service';

export const RING_TIMEOUT_FUNCTION = 'callRingTimeout';

// Cloud Tasks through firebase-admin (the Functions emulator points it at the Tasks emulator).
export function cloudTasksScheduler(): RingScheduler {
  return {
    async schedule(callId, delaySec) {
      const { getFunctions } = require('firebase-admin/functions') as typeof import('firebase-admin/functions');
      await getFunctions(firebaseApp()).taskQueue(RING_TIMEOUT_FUNCTION).enqueue({ callId }, { scheduleDelaySeconds: delaySec, id: `ring-${callId}` });
    },
  };
}

export function callsServiceFor(config: Readonly<AppConfig>, scheduler: RingScheduler = cloudTasksScheduler()) {
  return createCallsService({ hub: notificationHub(config), scheduler, ringTimeoutSec: config.CALL_RING_TIMEOUT_SEC });
}

// The task: waits for the deadline if delivered early (the Tasks emulator ignores schedule times), then
// settles the call. Safe to deliver twice.
export async function handleRingTimeout(config: Readonly<AppConfig>, callId: string, readDeadline: (id: string) => Promise<number | undefined>) {
  const deadline = await readDeadline(callId);
  if (deadline === undefined) return;
  const wait = Math.min(deadline - Date.now(), 60_000);
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  const call = await callsServiceFor(config).timeout(callId);
  logger.info('ring timeout handled', { callId, status: call.status });
}
