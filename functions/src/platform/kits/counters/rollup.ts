import type { DocumentReference } from 'firebase-admin/firestore';
import * as z from 'zod/mini';
import { sha256 } from '../ids/digest';
import { defineTaskQueue, enqueue, type TaskQueue } from '../tasks/tasks';
import type { Counts, ShardedCounter } from './sharded-counter';

// When a counter's sum is rolled up into its document (a sharded counter with `summary`): each change to a shard (a
// Firestore trigger on the shards) asks for the rollup of the second it happened in: one task per document and
// second (Cloud Tasks drops a second task with the same id), run after that second ends. So a document takes at most
// one rollup write a second however busy its counter is, and every change is in the rollup of its second (the task
// sums the shards after the second's changes committed). The summary trails the shards by a second or two.

export const ROLLUP_WINDOW_MS = 1_000;
/** The task runs this long after its second ends: the function's clock and Firestore's commit times agree closer than that. */
export const ROLLUP_MARGIN_MS = 250;

/** A rollup task's payload: the document (by the queue's id field) and when its second's rollup may run. */
export type RollupPayload<K extends string> = Record<K, string> & { runAt: number };

/** The queue of a rollup task function: its payload names the counted document in `idField`. */
export type RollupQueue<K extends string> = TaskQueue<RollupPayload<K>> & { idField: K };

/** The queue of a rollup task function (named `name`): the counted document's id in `idField`, and `runAt`. */
export function rollupTaskQueue<K extends string>(name: string, idField: K): RollupQueue<K> {
  const payload = z.object({ [idField]: z.string().check(z.minLength(1), z.maxLength(1500)), runAt: z.number() });
  // Generic keys defeat zod's inference; the object's output is exactly RollupPayload<K>.
  return { ...defineTaskQueue(name, payload as unknown as z.ZodMiniType<RollupPayload<K>>), idField };
}

/** Asks for the rollup of the second `changedAt` falls in (a repeated ask, or a redelivered trigger, adds no task). */
export async function requestRollup<K extends string>(queue: RollupQueue<K>, id: string, changedAt: number, now: number = Date.now()): Promise<void> {
  const second = Math.floor(changedAt / ROLLUP_WINDOW_MS);
  const runAt = (second + 1) * ROLLUP_WINDOW_MS + ROLLUP_MARGIN_MS;
  // Task ids allow letters, digits, - and _ only: the document's id is hashed.
  const taskId = `${sha256(`${queue.name}:${id}`).slice(0, 32)}-${second}`;
  const payload = { [queue.idField]: id, runAt } as RollupPayload<K>;
  await enqueue(queue, payload, { id: taskId, delaySec: Math.max(1, Math.ceil((runAt - now) / 1000)) });
}

/**
 * The rollup task's work (at least once: a repeat stores the same sum again). The Tasks emulator runs a task when it
 * is enqueued, so an early task waits for its second's end (at most ROLLUP_WINDOW_MS + ROLLUP_MARGIN_MS).
 */
export async function runRollup<F extends string>(
  counter: ShardedCounter<F>,
  parent: DocumentReference,
  runAt: number,
  clock: { now: () => number; sleep: (ms: number) => Promise<void> } = { now: Date.now, sleep: (ms) => new Promise((r) => setTimeout(r, ms)) },
): Promise<Counts<F> | undefined> {
  const early = runAt - clock.now();
  if (early > 0) await clock.sleep(Math.min(early, ROLLUP_WINDOW_MS + ROLLUP_MARGIN_MS));
  return counter.rollUp(parent);
}
