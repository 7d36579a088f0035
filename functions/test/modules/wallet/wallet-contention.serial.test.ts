import { randomUUID } from 'node:crypto';
import { registerVerified, type Tokens } from '../../helpers/accounts';
import { call, retryWhile } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { balance, ledgerCheck, topUp } from '../../helpers/wallet';

// Runs alone (the serial project): 50 transfers from one wallet at once. They queue in the instance (one at a time
// per sender, platform/kits/firestore/one-at-a-time); side by side, the emulator resolved their lock waits only by
// its ~30 s lock timeout (50–90 s, requests past their deadline). A client still retries a 503 with the same key,
// and the 409 IDEMPOTENCY_IN_PROGRESS that answers a retry while the first attempt runs, after Retry-After.
beforeAll(requireEmulators);

type Person = Tokens & { email: string };
const key = () => randomUUID();
const send = (from: Person, to: Person | string, amount: number, idempotencyKey = key(), note?: string) =>
  call('POST', '/wallet/transfers', {
    token: from.accessToken,
    body: { toUserId: typeof to === 'string' ? to : to.user.id, amount, ...(note ? { note } : {}) },
    headers: { 'idempotency-key': idempotencyKey },
  });

describe('transfers between users, one wallet under contention', () => {
  it('50 concurrent debits of 10,000 on a wallet of 200,000: exactly 20 succeed, the balance ends at 0, never below', async () => {
    const [payer, shop] = [await registerVerified(), await registerVerified()];
    await topUp(payer, 200_000);
    const sendRetrying = () => {
      const k = key();
      // Retried as apps do, with the same key: a 503 (CONTENDED, or DEADLINE_EXCEEDED while the work goes on), and
      // the 409 IDEMPOTENCY_IN_PROGRESS that answers a retry while the first attempt still runs, after Retry-After.
      return retryWhile(
        () => send(payer, shop, 10_000, k),
        (res) => res.status === 503 || (res.status === 409 && res.body.code === 'IDEMPOTENCY_IN_PROGRESS'),
        40,
      );
    };
    const results = await Promise.all(Array.from({ length: 50 }, sendRetrying));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(
      results
        .filter((r) => r.status !== 201)
        .map((r) => r.body.code)
        .filter((c) => c !== 'WALLET_INSUFFICIENT_FUNDS'),
    ).toEqual([]);
    expect([await balance(payer), await balance(shop)]).toEqual([0, 200_000]);
    const after = results.filter((r) => r.status === 201).map((r) => r.body.balanceAfter as number);
    expect(Math.min(...after)).toBe(0);
    expect(new Set(after).size).toBe(20);
    expect((await ledgerCheck(payer.user.id)).ok).toBe(true);
    expect((await ledgerCheck(shop.user.id)).ok).toBe(true);
    // Queued in the instance: about 3 s alone on a fresh emulator.
  }, 120_000);
});
