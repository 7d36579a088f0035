import { randomUUID } from 'node:crypto';
import { db } from '../../../src/platform/core/firebase/firebase';
import { adminTokens, registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { waitFor } from '../../helpers/wait';
import { USERS } from '../../../src/modules/users/users.model';
import { balance, ledgerCheck, topUp } from '../../helpers/wallet';
import { inboxOf } from '../../helpers/notifications';

beforeAll(requireEmulators);

type Person = Tokens & { email: string };
const key = () => randomUUID();
const send = (from: Person, to: Person | string, amount: number, idempotencyKey = key(), note?: string) =>
  call('POST', '/wallet/transfers', {
    token: from.accessToken,
    body: { toUserId: typeof to === 'string' ? to : to.user.id, amount, ...(note ? { note } : {}) },
    headers: { 'idempotency-key': idempotencyKey },
  });

describe('wallet balance and history', () => {
  it('a MOCK top-up credits the wallet at once; history lists it with the balance after; the ledger agrees', async () => {
    const an = await registerVerified({ name: 'An' });
    expect(await call('GET', '/wallet', { token: an.accessToken })).toMatchObject({
      status: 200,
      body: { userId: an.user.id, currency: 'VND', balance: 0, held: 0 },
    });
    const payment = await topUp(an, 150_000);
    expect(payment).toMatchObject({ purpose: 'TOPUP', method: 'GATEWAY', provider: 'MOCK', amount: 150_000, paymentUrl: null });
    expect(await balance(an)).toBe(150_000);
    const history = await call('GET', '/wallet/transactions', { token: an.accessToken });
    expect(history.body.items).toEqual([
      expect.objectContaining({
        kind: 'TOPUP',
        direction: 'IN',
        amount: 150_000,
        balanceAfter: 150_000,
        counterparty: { type: 'GATEWAY_MOCK', userId: null },
        paymentId: payment.id,
      }),
    ]);
    const one = await call('GET', `/wallet/transactions/${history.body.items[0].id}`, { token: an.accessToken });
    expect(one.body).toEqual(history.body.items[0]);
    expect(await ledgerCheck(an.user.id)).toMatchObject({
      ok: true,
      accounts: expect.arrayContaining([{ accountId: `wallet_${an.user.id}`, stored: 150_000, fromTransfers: 150_000, ok: true }]),
    });
  });

  it("another user's entry is 404; filters and paging work; bad queries are 400", async () => {
    const [an, binh] = [await registerVerified(), await registerVerified()];
    await topUp(an, 50_000);
    for (let i = 0; i < 3; i++) expect((await send(an, binh, 1_000 + i)).status).toBe(201);
    const mine = await call('GET', '/wallet/transactions?kind=P2P&limit=2', { token: an.accessToken });
    expect(mine.body.items.map((e: { amount: number; direction: string }) => [e.amount, e.direction])).toEqual([
      [1_002, 'OUT'],
      [1_001, 'OUT'],
    ]);
    const rest = await call('GET', `/wallet/transactions?kind=P2P&limit=2&cursor=${mine.body.nextCursor}`, { token: an.accessToken });
    expect(rest.body.items.map((e: { amount: number }) => e.amount)).toEqual([1_000]);
    expect((await call('GET', `/wallet/transactions?kind=P2P&limit=2&cursor=${mine.body.nextCursor}`, { token: binh.accessToken })).status).toBe(400);
    const stranger = await registerVerified();
    expect((await call('GET', `/wallet/transactions/${mine.body.items[0].id}`, { token: stranger.accessToken })).status).toBe(404);
    const received = await call('GET', `/wallet/transactions/${mine.body.items[0].id}`, { token: binh.accessToken });
    expect(received.body).toMatchObject({ direction: 'IN', amount: 1_002, counterparty: { type: 'WALLET', userId: an.user.id } });
    expect((await call('GET', '/wallet/transactions?kind=GIFT', { token: an.accessToken })).status).toBe(400);
    expect((await call('GET', '/wallet/transactions?account=PLATFORM', { token: an.accessToken })).status).toBe(400);
  });
});

describe('transfers between users', () => {
  it('moves money, notifies the recipient once (WALLET inbox, wallet sound, in their language), and counts toward the daily limit', async () => {
    const [an, binh] = [await registerVerified({ name: 'An Nguyen' }), await registerVerified({ language: 'vi' })];
    await topUp(an, 100_000);
    const sent = await send(an, binh, 40_000, key(), 'Tiền cơm');
    expect(sent).toMatchObject({
      status: 201,
      body: { kind: 'P2P', direction: 'OUT', amount: 40_000, balanceAfter: 60_000, toUserId: binh.user.id, memo: 'Tiền cơm' },
    });
    expect([await balance(an), await balance(binh)]).toEqual([60_000, 40_000]);
    const item = await waitFor(async () => (await inboxOf(binh.user.id, { entityId: sent.body.id }))[0], { what: 'the transfer notice' });
    expect(item).toMatchObject({
      kind: 'WALLET',
      event: 'wallet.transfer.received',
      data: { sfx: 'wallet_transfer_received', deepLink: { tab: 'AccountTab', screen: 'WalletTransaction' } },
    });
    expect([item.title, item.body]).toEqual(['Bạn đã nhận được tiền', 'An Nguyen đã chuyển cho bạn 40.000\u00a0₫']);
    expect((await call('GET', '/wallet/limits', { token: an.accessToken })).body).toMatchObject({ sentToday: 40_000, remainingToday: 20_000_000 - 40_000 });
  });

  it('refuses bad transfers with their codes and moves nothing', async () => {
    const [an, binh] = [await registerVerified(), await registerVerified()];
    await topUp(an, 30_000);
    expect((await call('POST', '/wallet/transfers', { token: an.accessToken, body: { toUserId: binh.user.id, amount: 1_000 } })).body.code).toBe(
      'IDEMPOTENCY_KEY_REQUIRED',
    );
    expect((await send(an, an, 1_000)).body.code).toBe('WALLET_SELF_TRANSFER');
    expect((await send(an, 'no-such-user-id', 1_000)).status).toBe(404);
    expect((await send(an, binh, 30_001)).body).toMatchObject({ code: 'WALLET_INSUFFICIENT_FUNDS', details: { available: 30_000, needed: 30_001 } });
    for (const amount of [999, 1_000.5, -5, '1000', 0]) expect((await send(an, binh, amount as number)).status).toBe(400);
    const locked = await registerVerified();
    await db().collection(USERS).doc(locked.user.id).update({ disabled: true });
    expect((await send(an, locked, 1_000)).body.code).toBe('WALLET_RECIPIENT_UNAVAILABLE');
    expect([await balance(an), await balance(binh)]).toEqual([30_000, 0]);
    const driverOnly = await registerVerified();
    await db()
      .collection(USERS)
      .doc(driverOnly.user.id)
      .update({ roles: ['DRIVER'] });
    expect((await send(driverOnly, binh, 1_000)).body.code).toBe('HAT_LOCKED');
  });

  it('the same Idempotency-Key sent 20 times in parallel makes one transfer', async () => {
    const [an, binh] = [await registerVerified(), await registerVerified()];
    await topUp(an, 100_000);
    const k = key();
    const results = await Promise.all(Array.from({ length: 20 }, () => send(an, binh, 7_000, k)));
    expect(results.every((r) => r.status === 201 || (r.status === 409 && r.body.code === 'IDEMPOTENCY_IN_PROGRESS'))).toBe(true);
    const ids = new Set(results.filter((r) => r.status === 201).map((r) => r.body.id));
    expect(ids.size).toBe(1);
    expect([await balance(an), await balance(binh)]).toEqual([93_000, 7_000]);
    const again = await send(an, binh, 7_000, k);
    expect(again.status).toBe(201);
    expect(again.body.id).toEqual([...ids][0]);
    expect((await send(an, binh, 8_000, k)).body.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('the daily limit stops a transfer that would pass it, and says what is left', async () => {
    const [an, binh] = [await registerVerified(), await registerVerified()];
    await topUp(an, 25_000_000);
    expect((await send(an, binh, 15_000_000)).status).toBe(201);
    const over = await send(an, binh, 5_000_001);
    expect(over.body).toMatchObject({ code: 'WALLET_DAILY_LIMIT', details: { remainingToday: 5_000_000 } });
    expect((await send(an, binh, 5_000_000)).status).toBe(201);
    expect(await balance(an)).toBe(5_000_000);
  });
});

describe('administration', () => {
  it('adjustments are new transfers (never edits), ADMIN only, and cannot take a wallet below zero', async () => {
    const [an, admin] = [await registerVerified(), await adminTokens()];
    const adjust = (body: Record<string, unknown>, token = admin.accessToken) =>
      call('POST', '/wallet/admin/adjustments', {
        token,
        body: { userId: an.user.id, reason: 'goodwill credit', ...body },
        headers: { 'idempotency-key': key() },
      });
    expect((await adjust({ amount: 20_000, direction: 'CREDIT' }, an.accessToken)).status).toBe(403);
    expect((await adjust({ amount: 20_000, direction: 'CREDIT' })).body).toMatchObject({
      status: 'APPLIED',
      amount: 20_000,
      direction: 'CREDIT',
      transferId: expect.any(String),
    });
    expect((await adjust({ amount: 20_001, direction: 'DEBIT' })).body.code).toBe('WALLET_INSUFFICIENT_FUNDS');
    expect((await adjust({ amount: 5_000, direction: 'DEBIT' })).status).toBe(201);
    expect((await adjust({ amount: 5_000, direction: 'SIDEWAYS' })).status).toBe(400);
    expect((await call('GET', `/wallet/admin/users/${an.user.id}`, { token: admin.accessToken })).body.balance).toBe(15_000);
    const system = await call('GET', '/wallet/admin/system-accounts', { token: admin.accessToken });
    // A sharded account's balance is its shards' sum (an aggregation query): the same as adding the shards up here,
    // compared when no other test's ride or order moved the revenue while the request ran (read before and after).
    const shardSum = async () =>
      (await db().collection('ledger_accounts').doc('platform_revenue').collection('ledger_shards').get()).docs.reduce(
        (sum, d) => sum + ((d.get('balance') as number | undefined) ?? 0),
        0,
      );
    const revenueOf = (body: { accounts: Array<{ accountId: string; balance: number }> }) =>
      body.accounts.find((a) => a.accountId === 'platform_revenue')!.balance;
    for (let attempt = 1; ; attempt++) {
      const before = await shardSum();
      const answered = revenueOf((await call('GET', '/wallet/admin/system-accounts', { token: admin.accessToken })).body);
      if (before === (await shardSum()) || attempt === 5) {
        expect(answered).toBe(before);
        break;
      }
    }
    expect(system.body.accounts).toEqual(
      expect.arrayContaining([
        { accountId: 'platform_revenue', balance: expect.any(Number), shards: 16 },
        { accountId: 'platform_adjustments', balance: expect.any(Number), shards: 1 },
      ]),
    );
    // Answered again for an administrator (three calls hold the operation to its read budget in npm test).
    expect((await call('GET', '/wallet/admin/system-accounts', { token: admin.accessToken })).status).toBe(200);
    expect((await call('GET', '/wallet/admin/system-accounts', { token: an.accessToken })).status).toBe(403);
  });
});
