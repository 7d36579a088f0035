import type { AppConfig } from '../../platform/config';
import { logger } from '../../platform/logging/logger';
import { callsRepo } from './calls.repo';
import { callsServiceFor } from './chat.wiring';

const RECHECK_MS = 500;
const MAX_WAIT_MS = 90_000; // below the task function's 120 s timeout

export interface RingTimeoutDeps {
  /** The ring deadline of a call still RINGING; undefined once it is settled (or unknown). */
  ringingUntil(callId: string): Promise<number | undefined>;
  settle(callId: string): Promise<{ status: string }>;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

// The task. Delivered early (the Tasks emulator ignores schedule times), it waits for the deadline but
// looks again every half second, so a call answered or cancelled meanwhile frees the worker at once.
// Never settles before the deadline: too far off, it fails and Cloud Tasks retries later. Safe to deliver twice.
export async function handleRingTimeout(callId: string, deps: RingTimeoutDeps): Promise<'settled' | 'already-settled'> {
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = deps.now ?? Date.now;
  const startedAt = now();
  for (;;) {
    const deadline = await deps.ringingUntil(callId);
    if (deadline === undefined) return 'already-settled';
    const wait = deadline - now();
    if (wait <= 0) break;
    if (now() - startedAt + wait > MAX_WAIT_MS && wait > RECHECK_MS) throw new Error(`ring of ${callId} ends in ${Math.round(wait / 1000)} s: retry later`);
    await sleep(Math.min(wait, RECHECK_MS));
  }
  const call = await deps.settle(callId);
  logger.info('ring timeout handled', { callId, status: call.status });
  return 'settled';
}

/** The `callRingTimeout` task function's work, wired to the stored call and the shared calls service. */
export async function onRingTimeout({ callId }: { callId: string }, config: Readonly<AppConfig>): Promise<void> {
  await handleRingTimeout(callId, { ringingUntil: (id) => callsRepo.ringingUntil(id), settle: (id) => callsServiceFor(config).timeout(id) });
}
