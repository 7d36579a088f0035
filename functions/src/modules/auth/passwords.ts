import { z } from 'zod';
import { createWorkerPool, type WorkerPool } from '../../platform/core/workers/pool';

// bcrypt reads at most 72 bytes: longer passwords are refused, never silently truncated. No trimming.
export const MAX_PASSWORD_BYTES = 72;
export const PasswordSchema = z
  .string()
  .min(8, { message: 'must be at least 8 characters' })
  .refine((v) => Buffer.byteLength(v, 'utf8') <= MAX_PASSWORD_BYTES, {
    message: `must be at most ${MAX_PASSWORD_BYTES} bytes in UTF-8`,
  })
  .meta({ description: `8 characters to ${MAX_PASSWORD_BYTES} UTF-8 bytes; spaces count.` });

type Bcrypt = typeof import('bcryptjs');
const bcrypt = (): Bcrypt => require('bcryptjs') as Bcrypt;

export interface PasswordHasher {
  hash(plain: string): Promise<string>;
  /** Compares against a dummy hash when there is no account, so unknown users cost the same time. */
  verify(plain: string, hash: string | null | undefined): Promise<boolean>;
}

type HashJob = { op: 'hash'; plain: string; cost: number } | { op: 'compare'; plain: string; hash: string };

// bcryptjs is pure JavaScript: about 75 ms of CPU per hash at cost 10. In the worker threads it never blocks the
// event loop that serves the instance's other requests.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const bcrypt = require(workerData.bcryptjs);
// On Linux a nice value is per thread: this thread yields the CPU to the event loop's. Elsewhere it would lower
// the whole process, so it is left alone.
if (process.platform === 'linux') {
  try { require('node:os').setPriority(workerData.nice); } catch {}
}
parentPort.on('message', ({ input }) => {
  try {
    const output = input.op === 'hash' ? bcrypt.hashSync(input.plain, input.cost) : bcrypt.compareSync(input.plain, input.hash);
    parentPort.postMessage({ output });
  } catch (err) {
    parentPort.postMessage({ error: String((err && err.message) || err) });
  }
});`;

let pool: WorkerPool<HashJob, string | boolean> | undefined;
/**
 * One pool per process, a thread per CPU but one (at least one): the event loop keeps a core for everything else.
 * On a 1-vCPU Cloud Functions instance that is one thread, which the OS time-slices with the event loop.
 */
function hashingPool(): WorkerPool<HashJob, string | boolean> {
  const { availableParallelism } = require('node:os') as typeof import('node:os');
  pool ??= createWorkerPool<HashJob, string | boolean>({
    source: WORKER_SOURCE,
    size: Math.max(1, availableParallelism() - 1),
    workerData: { bcryptjs: require.resolve('bcryptjs'), nice: 10 },
  });
  return pool;
}

/** `inline`: hash on the calling thread (the benchmark's "before"; never in the API). */
export function createPasswordHasher(cost: number, options: { inline?: boolean } = {}): PasswordHasher {
  const hash = (plain: string): Promise<string> =>
    options.inline ? bcrypt().hash(plain, cost) : (hashingPool().run({ op: 'hash', plain, cost }) as Promise<string>);
  const compare = (plain: string, stored: string): Promise<boolean> =>
    options.inline ? bcrypt().compare(plain, stored) : (hashingPool().run({ op: 'compare', plain, hash: stored }) as Promise<boolean>);
  let dummy: Promise<string> | undefined;
  return {
    hash,
    async verify(plain, stored) {
      if (!stored) {
        // The same path as a real account: a full compare in the pool against a hash of the same cost.
        dummy ??= hash('dummy-password-for-timing');
        await compare(plain, await dummy);
        return false;
      }
      return compare(plain, stored);
    },
  };
}
