import { threadId } from 'node:worker_threads';
import { createPasswordHasher } from '../../src/modules/auth/passwords';
import { createWorkerPool } from '../../src/platform/core/workers/pool';

// The pool runs jobs on other threads, all of them, in any number, and survives a job that fails or a thread that dies.
const SOURCE = `
const { parentPort, threadId } = require('node:worker_threads');
parentPort.on('message', ({ input }) => {
  if (input === 'fail') return parentPort.postMessage({ error: 'asked to fail' });
  if (input === 'die') process.exit(3);
  parentPort.postMessage({ output: { doubled: input * 2, threadId } });
});`;

describe('worker pool', () => {
  it('answers every job from worker threads, never the caller’s, using at most `size` threads', async () => {
    const pool = createWorkerPool<number, { doubled: number; threadId: number }>({ source: SOURCE, size: 2 });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => pool.run(i)));
    expect(answers.map((a) => a.doubled)).toEqual(Array.from({ length: 20 }, (_, i) => i * 2));
    const threads = new Set(answers.map((a) => a.threadId));
    expect(threads.has(threadId)).toBe(false);
    expect(threads.size).toBeLessThanOrEqual(2);
    await pool.close();
  });

  it('a failing job rejects alone; a dying thread fails its job and is replaced', async () => {
    const pool = createWorkerPool<unknown, { doubled: number }>({ source: SOURCE, size: 1 });
    await expect(pool.run('fail')).rejects.toThrow('asked to fail');
    await expect(pool.run('die')).rejects.toThrow();
    expect((await pool.run(21)).doubled).toBe(42);
    await pool.close();
  });

  it('hashes made in the pool verify inline and the other way round (same bcrypt)', async () => {
    const pooled = createPasswordHasher(4);
    const inline = createPasswordHasher(4, { inline: true });
    expect(await inline.verify('mật khẩu đúng', await pooled.hash('mật khẩu đúng'))).toBe(true);
    expect(await pooled.verify('mật khẩu đúng', await inline.hash('mật khẩu đúng'))).toBe(true);
    expect(await pooled.verify('sai', await inline.hash('mật khẩu đúng'))).toBe(false);
  });
});
