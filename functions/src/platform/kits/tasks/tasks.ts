import * as z from 'zod/mini';
import { firebaseApp } from '../../core/firebase/firebase';
import { functionsRegion } from '../../core/deploy/settings';
import { currentLogFields } from '../../core/logging/logger';

// Typed Cloud Tasks queues. A queue is named after the task function that consumes it (Firebase's
// convention); its payload schema is checked when enqueueing and again when the task runs. Payloads are
// zod/mini schemas: queues are part of the module definitions every instance loads at cold start.
export interface TaskQueue<P> {
  readonly name: string;
  readonly payload: z.ZodMiniType<P>;
}

export function defineTaskQueue<P>(name: string, payload: z.ZodMiniType<P>): TaskQueue<P> {
  return { name, payload };
}

/** A queue whose task names one document (a timer on a call, a ride, a payment…): `{ [idField]: id }`. */
export function documentTaskQueue<K extends string>(name: string, idField: K): TaskQueue<Record<K, string>> {
  const id = z.string().check(z.minLength(1), z.maxLength(1500));
  // Generic keys defeat zod's inference; the object's output is exactly Record<K, string>.
  return defineTaskQueue(name, z.object({ [idField]: id }) as unknown as z.ZodMiniType<Record<K, string>>);
}

export interface EnqueueOptions {
  /** Cloud Tasks drops a second task with the same id (deduplication for about an hour after it ran). */
  id?: string;
  delaySec?: number;
}

const alreadyQueued = (err: unknown) => /already[ -]exists/i.test(`${(err as { code?: string }).code ?? ''} ${(err as Error).message ?? ''}`);

/**
 * Enqueues through firebase-admin (the Functions emulator points it at the Tasks emulator). A task whose
 * id is already queued counts as enqueued: retried requests do not make a second one. `delaySec` is Cloud Tasks'
 * schedule; the Tasks emulator ignores it (runs the task at once): timers go through platform/kits/deadlines, whose
 * scheduler keeps the schedule on the emulator.
 */
export async function enqueue<P>(queue: TaskQueue<P>, payload: P, options: EnqueueOptions = {}): Promise<void> {
  const data = queue.payload.parse(payload);
  await enqueueNow(queue, data, options.id, options.delaySec);
}

/** The id of the request that enqueues a task, as a header of the task: its run logs it (platform/core/module/runs). */
export function originHeaders(): Record<string, string> | undefined {
  const requestId = currentLogFields()?.requestId;
  return typeof requestId === 'string' ? { 'X-Request-Id': requestId } : undefined;
}

async function enqueueNow<P>(queue: TaskQueue<P>, data: P, id: string | undefined, delaySec?: number): Promise<void> {
  const { getFunctions } = require('firebase-admin/functions') as typeof import('firebase-admin/functions');
  const headers = originHeaders();
  await getFunctions(firebaseApp())
    // The queue of a task function is in that function's region (firebase-admin assumes us-central1 otherwise).
    .taskQueue(`locations/${functionsRegion()}/functions/${queue.name}`)
    .enqueue(data as Record<string, unknown>, {
      ...(id ? { id } : {}),
      ...(delaySec ? { scheduleDelaySeconds: delaySec } : {}),
      ...(headers ? { headers } : {}),
    })
    .catch((err: unknown) => {
      if (!(id && alreadyQueued(err))) throw err;
    });
}
