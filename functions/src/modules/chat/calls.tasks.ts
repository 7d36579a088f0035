import type { AppConfig } from '../../platform/core/config';
import { runDeadlineTask } from '../../platform/kits/deadlines/deadlines';
import { logger } from '../../platform/core/logging/logger';
import { RING_DEADLINE } from './calls.model';
import { callsRepo } from './calls.repo';
import { callsServiceFor } from './chat.wiring';

export interface RingTimeoutDeps {
  /** The ring deadline of a call still RINGING; undefined once it is settled (or unknown). */
  ringingUntil(callId: string): Promise<number | undefined>;
  settle(callId: string): Promise<{ status: string }>;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

// The task, on the deadlines kit: delivered early (the Tasks emulator ignores schedule times), it waits for the
// deadline but looks again every half second, so a call answered or cancelled meanwhile frees the worker at once.
// Never settles before the deadline: too far off, it fails and Cloud Tasks retries later. Safe to deliver twice.
export async function handleRingTimeout(callId: string, deps: RingTimeoutDeps): Promise<'settled' | 'already-settled'> {
  let status: string | undefined;
  const outcome = await runDeadlineTask(callId, {
    dueOf: deps.ringingUntil,
    expire: async (id) => ({ status } = await deps.settle(id)),
    now: deps.now,
    sleep: deps.sleep,
    maxWaitMs: RING_DEADLINE.spec.maxWaitMs,
    name: RING_DEADLINE.spec.entity,
  });
  if (outcome === 'settled') return 'already-settled';
  logger.info('ring timeout handled', { callId, status });
  return 'settled';
}

/** The `callRingTimeout` task function's work, wired to the stored call and the shared calls service. */
export async function onRingTimeout({ callId }: { callId: string }, config: Readonly<AppConfig>): Promise<void> {
  const ringingUntil = async (id: string) => {
    const call = await callsRepo.get(id);
    return call ? (RING_DEADLINE.dueAt(call) ?? undefined) : undefined;
  };
  await handleRingTimeout(callId, { ringingUntil, settle: (id) => callsServiceFor(config).timeout(id) });
}
