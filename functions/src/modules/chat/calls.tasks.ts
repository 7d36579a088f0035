import type { AppConfig } from '../../platform/core/config';
import { logger } from '../../platform/core/logging/logger';
import { RING_DEADLINE, type CallRecord } from './calls.model';
import { callsRepo } from './calls.repo';
import { callsServiceFor } from './chat.wiring';

export interface RingTimeoutDeps {
  /** The call as stored (undefined: unknown); its ring deadline counts only while it is RINGING. */
  load(callId: string): Promise<CallRecord | undefined>;
  settle(callId: string): Promise<{ status: string }>;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

// The task, on the deadlines kit: delivered early (the Tasks emulator ignores schedule times), it waits for the
// deadline but looks again every half second, so a call answered or cancelled meanwhile frees the worker at once.
// Never settles before the deadline: too far off, it fails and Cloud Tasks retries later. Safe to deliver twice.
export async function handleRingTimeout(callId: string, deps: RingTimeoutDeps): Promise<'settled' | 'already-settled'> {
  let status: string | undefined;
  const outcome = await RING_DEADLINE.run(callId, {
    load: deps.load,
    expire: async (id) => ({ status } = await deps.settle(id)),
    now: deps.now,
    sleep: deps.sleep,
  });
  if (outcome === 'settled') return 'already-settled';
  logger.info('ring timeout handled', { callId, status });
  return 'settled';
}

/** The `callRingTimeout` task function's work, wired to the stored call and the shared calls service. */
export async function onRingTimeout({ callId }: { callId: string }, config: Readonly<AppConfig>): Promise<void> {
  await handleRingTimeout(callId, { load: (id) => callsRepo.get(id), settle: (id) => callsServiceFor(config).timeout(id) });
}
