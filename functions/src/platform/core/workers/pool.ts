import type { Worker } from 'node:worker_threads';

// CPU-heavy work (password hashing) off the event loop: a few worker threads, each running one task at a time, fed
// from one queue. The API runs with concurrency 80: a 75 ms hash on the event loop would stall every other request
// of the instance (rings, rides), in a worker it only takes CPU time the OS shares out.

export interface WorkerPool<I, O> {
  run(input: I): Promise<O>;
  /** Stops the threads (tests, shutdown); later runs start new ones. */
  close(): Promise<void>;
  readonly size: number;
}

interface Job<I, O> {
  input: I;
  resolve(value: O): void;
  reject(err: Error): void;
}

interface Slot<I, O> {
  worker: Worker;
  job: Job<I, O> | undefined;
}

/**
 * `source`: CommonJS code of the worker, run with `eval` (no file to locate next to a bundle); it gets `workerData`
 * and answers each message `{ input }` with `{ output }` or `{ error }`. Threads start on first use and are unref'd
 * (an idle pool never keeps the process alive).
 */
export function createWorkerPool<I, O>(options: { source: string; size: number; workerData?: unknown }): WorkerPool<I, O> {
  const size = Math.max(1, Math.floor(options.size));
  const slots: Array<Slot<I, O>> = [];
  const queue: Array<Job<I, O>> = [];

  function start(): Slot<I, O> {
    const { Worker: WorkerThread } = require('node:worker_threads') as typeof import('node:worker_threads');
    const worker = new WorkerThread(options.source, { eval: true, workerData: options.workerData });
    worker.unref();
    const slot: Slot<I, O> = { worker, job: undefined };
    worker.on('message', (message: { output?: O; error?: string }) => {
      const job = slot.job;
      slot.job = undefined;
      if (message.error !== undefined) job?.reject(new Error(message.error));
      else job?.resolve(message.output as O);
      next(slot);
      if (!slot.job) slot.worker.unref();
    });
    // A thread that throws or exits fails its job and is replaced; the queue goes on.
    const lost = (err: Error) => {
      slot.job?.reject(err);
      slot.job = undefined;
      const at = slots.indexOf(slot);
      if (at < 0) return;
      slots.splice(at, 1);
      pump();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`worker thread exited (code ${code})`)));
    slots.push(slot);
    return slot;
  }

  function next(slot: Slot<I, O>): void {
    const job = queue.shift();
    if (!job) return;
    slot.job = job;
    slot.worker.ref(); // a job in flight keeps the process alive until it answers
    slot.worker.postMessage({ input: job.input });
  }

  function pump(): void {
    while (queue.length > 0) {
      const idle = slots.find((s) => !s.job) ?? (slots.length < size ? start() : undefined);
      if (!idle) return;
      next(idle);
    }
    for (const slot of slots) if (!slot.job) slot.worker.unref();
  }

  return {
    size,
    run(input) {
      return new Promise<O>((resolve, reject) => {
        queue.push({ input, resolve, reject });
        pump();
      });
    },
    async close() {
      const closing = slots.splice(0);
      await Promise.all(closing.map((s) => s.worker.terminate()));
    },
  };
}
