import { sellerQueueKey, storeBusy } from '../../../src/modules/cart/cart.checkout.queue';
import { oneAtATime } from '../../../src/platform/kits/firestore/one-at-a-time';

// A store's placing transactions, one at a time in the instance, each waiting at most a capped time.
describe('oneAtATime', () => {
  const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('runs the runs of one key one after another, in order, and other keys beside them', async () => {
    const log: string[] = [];
    const run = (key: string, name: string, ms: number) =>
      oneAtATime(key, storeBusy, async () => {
        log.push(`${name} start`);
        await later(ms);
        log.push(`${name} end`);
        return name;
      });
    const results = await Promise.all([run('s1', 'a', 30), run('s1', 'b', 10), run('s2', 'c', 5)]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(log.indexOf('b start')).toBeGreaterThan(log.indexOf('a end'));
    expect(log.indexOf('c end')).toBeLessThan(log.indexOf('a end'));
  });

  it('a run that would wait past the cap is refused with nothing run; the queue goes on after the slow one', async () => {
    const ran: string[] = [];
    const slow = oneAtATime('s3', storeBusy, async () => (await later(200), ran.push('slow')), 50);
    const refused = oneAtATime('s3', storeBusy, async () => ran.push('refused'), 50);
    await expect(refused).rejects.toMatchObject({ statusCode: 409, code: 'CART_CHECKOUT_BUSY' });
    await slow;
    expect(await oneAtATime('s3', storeBusy, async () => 'next', 50)).toBe('next');
    expect(ran).toEqual(['slow']);
  });

  it('a failed run frees the queue', async () => {
    await expect(oneAtATime('s4', storeBusy, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await oneAtATime('s4', storeBusy, async () => 1)).toBe(1);
    expect(sellerQueueKey({ kind: 'MERCHANT', id: 'm1' })).toBe('MERCHANT/m1');
  });
});
