import type { z } from 'zod';
import { firebaseApp } from '../firebase/firebase';

// Typed Cloud Tasks queues. A queue is named after the task function that consumes it (Firebase's
// convention); its payload schema is checked when enqueueing and again when the task runs.
export interface TaskQueue<P> {
  readonly name: string;
  readonly payload: z.ZodType<P>;
}

export function defineTaskQueue<P>(name: string, payload: z.ZodType<P>): TaskQueue<P> {
  return { name, payload };
}

export interface EnqueueOptions {
  /** Cloud Tasks drops a second task with the same id (deduplication for about an hour after it ran). */
  id?: string;
  delaySec?: number;
}

const alreadyQueued = (err: unknown) => /already[ -]exists/i.test(`${(err as { code?: string }).code ?? ''} ${(err as Error).message ?? ''}`);

/**
 * Enqueues through firebase-admin (the Functions emulator points it at the Tasks emulator). A task whose
 * id is already queued counts as enqueued: retried requests do not make a second one.
 */
export async function enqueue<P>(queue: TaskQueue<P>, payload: P, options: EnqueueOptions = {}): Promise<void> {
  const data = queue.payload.parse(payload);
  const { getFunctions } = require('firebase-admin/functions') as typeof import('firebase-admin/functions');
  await getFunctions(firebaseApp())
    .taskQueue(queue.name)
    .enqueue(data as Record<string, unknown>, { ...(options.id ? { id: options.id } : {}), ...(options.delaySec ? { scheduleDelaySeconds: options.delaySec } : {}) })
    .catch((err: unknown) => {
      if (!(options.id && alreadyQueued(err))) throw err;
    });
}
