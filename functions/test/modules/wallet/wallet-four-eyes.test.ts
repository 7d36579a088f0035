import { randomUUID } from 'node:crypto';
import { ledgerRepo } from '../../../src/modules/wallet/ledger.repo';
import { systemAccount, userAccount } from '../../../src/modules/wallet/ledger.model';
import { db, inTransaction } from '../../../src/platform/core/firebase/firebase';
import { vnd } from '../../../src/platform/kits/money/money';
import { registerVerified, type Tokens } from '../../helpers/accounts';
import { withStaff } from '../../helpers/admins';
import { call } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { waitFor } from '../../helpers/wait';
import { USERS } from '../../../src/modules/users/users.model';
import { balance } from '../../helpers/wallet';
import { inboxOf, outboxFor } from '../../helpers/notifications';

beforeAll(requireEmulators);

// Issue 29 items 3, 14 and 15: no one approves their own money, per-user rate limits on money that leaves, and
// a transfer's note never pushed.
const key = () => randomUUID();
const adjust = (by: Tokens, body: Record<string, unknown>) =>
  call('POST', '/wallet/admin/adjustments', {
    token: by.accessToken,
    body: { direction: 'CREDIT', reason: 'goodwill credit', ...body },
    headers: { 'idempotency-key': key() },
  });
const decide = (by: Tokens, id: string, action: 'approve' | 'reject', body: Record<string, unknown> = {}) =>
  call('POST', `/wallet/admin/adjustments/${id}/${action}`, { token: by.accessToken, body });

const { admin: fullAdmin, limitedAdmin } = withStaff();
let admin: Tokens;
beforeAll(() => {
  admin = fullAdmin();
});

describe('four eyes on money', () => {
  it('an administrator cannot credit its own wallet', async () => {
    const manager = await limitedAdmin(['payments.manage']);
    expect((await adjust(manager, { userId: manager.user.id, amount: 10_000 })).body.code).toBe('WALLET_SELF_ADJUSTMENT');
    expect((await adjust(manager, { userId: manager.user.id, amount: 10_000, direction: 'DEBIT' })).body.code).toBe('WALLET_SELF_ADJUSTMENT');
    expect(await balance(manager)).toBe(0);
  });

  it('a large adjustment stays PENDING until a second administrator approves it; the requester cannot, nor a narrowed admin', async () => {
    const [requester, second, narrowed, user] = [
      await limitedAdmin(['payments.manage']),
      await limitedAdmin(['payments.manage']),
      await limitedAdmin([]),
      await registerVerified(),
    ];
    const small = await adjust(requester, { userId: user.user.id, amount: 5_000_000 });
    expect(small).toMatchObject({ status: 201, body: { status: 'APPLIED', requestedBy: requester.user.id, transferId: expect.any(String) } });
    expect(await balance(user)).toBe(5_000_000);

    const large = await adjust(requester, { userId: user.user.id, amount: 5_000_001, reason: 'lost top-up, bank statement 1234' });
    expect(large).toMatchObject({ status: 201, body: { status: 'PENDING', amount: 5_000_001, transferId: null, decidedBy: null } });
    expect(await balance(user)).toBe(5_000_000);
    const waiting = await call('GET', '/wallet/admin/adjustments?status=PENDING&limit=100', { token: second.accessToken });
    expect(waiting.body.items.map((a: { id: string }) => a.id)).toContain(large.body.id);

    expect((await decide(requester, large.body.id, 'approve')).body.code).toBe('ADJUSTMENT_SELF_APPROVAL');
    expect((await decide(narrowed, large.body.id, 'approve')).body.code).toBe('PERMISSION_REQUIRED');
    expect((await decide(user, large.body.id, 'approve')).status).toBe(403);
    expect(await balance(user)).toBe(5_000_000);

    const approved = await decide(second, large.body.id, 'approve', { reason: 'statement checked' });
    expect(approved.body).toMatchObject({ status: 'APPROVED', requestedBy: requester.user.id, decidedBy: second.user.id, transferId: expect.any(String) });
    expect(await balance(user)).toBe(10_000_001);
    expect((await decide(second, large.body.id, 'approve')).body.code).toBe('ADJUSTMENT_TRANSITION');
    expect(await balance(user)).toBe(10_000_001);

    const rejected = await adjust(requester, { userId: user.user.id, amount: 9_000_000 });
    expect((await decide(requester, rejected.body.id, 'reject', { reason: 'typed the wrong amount' })).body.status).toBe('REJECTED');
    expect((await decide(second, rejected.body.id, 'approve')).body.code).toBe('ADJUSTMENT_TRANSITION');
    expect(await balance(user)).toBe(10_000_001);
    expect((await call('GET', `/wallet/admin/users/${user.user.id}/check`, { token: second.accessToken })).body.ok).toBe(true);
  });

  it('racing approvals of one PENDING adjustment move the money once', async () => {
    const [requester, user] = [await limitedAdmin(['payments.manage']), await registerVerified()];
    const large = await adjust(requester, { userId: user.user.id, amount: 6_000_000 });
    const approvers = [admin, await limitedAdmin(['payments.manage'])];
    const results = await Promise.all(approvers.map((a) => decide(a, large.body.id, 'approve')));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status !== 200).map((r) => r.body.code)).toEqual(['ADJUSTMENT_TRANSITION']);
    expect(await balance(user)).toBe(6_000_000);
  });

  it('an administrator who also drives cannot approve its own withdrawal; another administrator can', async () => {
    const driverAdmin = await limitedAdmin(['payments.manage'], ['ADMIN', 'DRIVER']);
    await inTransaction((tx) =>
      ledgerRepo.post(
        tx,
        [
          {
            kind: 'ADJUSTMENT',
            debit: systemAccount('platform_adjustments'),
            credit: userAccount('EARNINGS', driverAdmin.user.id),
            amount: vnd(300_000),
            memo: 'earnings for the test',
          },
        ],
        { operationId: `test-earnings-${key()}`, by: 'test', now: Date.now() },
      ),
    );
    const asked = await call('POST', '/wallet/withdrawals', {
      token: driverAdmin.accessToken,
      body: { amount: 200_000, bankAccount: { bankCode: 'VCB', accountNumber: '0123456789', accountName: 'NGUYEN VAN A' } },
      headers: { 'idempotency-key': key() },
    });
    expect(asked.body.status).toBe('PENDING');
    expect((await call('POST', `/wallet/admin/withdrawals/${asked.body.id}/approve`, { token: driverAdmin.accessToken, body: {} })).body.code).toBe(
      'WITHDRAWAL_SELF_APPROVAL',
    );
    expect((await call('GET', `/wallet/withdrawals/${asked.body.id}`, { token: driverAdmin.accessToken })).body.status).toBe('PENDING');
    expect((await call('POST', `/wallet/admin/withdrawals/${asked.body.id}/approve`, { token: admin.accessToken, body: {} })).body).toMatchObject({
      status: 'APPROVED',
      decidedBy: admin.user.id,
    });
  });
});

describe('a transfer’s note', () => {
  it('is never pushed: the push and the inbox item name the sender and the amount; the app shows the note as plain text', async () => {
    const [an, binh] = [await registerVerified({ name: 'An Nguyen' }), await registerVerified()];
    const fcm = `fcm-wallet-${Date.now()}-${'t'.repeat(40)}`;
    expect(
      (await call('POST', '/push-tokens', { token: binh.accessToken, body: { token: fcm, surface: 'CON', platform: 'android', deviceId: 'w' } })).status,
    ).toBeLessThan(300);
    await call('POST', '/wallet/topups', { token: an.accessToken, body: { amount: 50_000, provider: 'MOCK' }, headers: { 'idempotency-key': key() } });
    const note = 'Your account is locked, log in at http://vi-lua.example <b>now</b>';
    const sent = await call('POST', '/wallet/transfers', {
      token: an.accessToken,
      body: { toUserId: binh.user.id, amount: 12_000, note },
      headers: { 'idempotency-key': key() },
    });
    expect(sent.status).toBe(201);
    const item = await waitFor(async () => (await inboxOf(binh.user.id, { entityId: sent.body.id }))[0], { what: 'the transfer notice' });
    expect([item.title, item.body]).toEqual(['Money received', 'An Nguyen sent you ₫12,000']); // an English account: English text and amount
    expect(JSON.stringify(item)).not.toContain('vi-lua');
    const pushed = await waitFor(async () => (await outboxFor(fcm))[0], { what: 'the push' });
    expect(pushed.notification ?? {}).not.toEqual(expect.objectContaining({ body: expect.stringContaining('vi-lua') }));
    expect(JSON.stringify(pushed)).not.toContain('vi-lua');
    expect(JSON.stringify(pushed)).toContain('₫12,000');
    expect((await call('GET', `/wallet/transactions/${sent.body.id}`, { token: binh.accessToken })).body.memo).toBe(note);
  });
});

describe('per-user rate limits on money that leaves', () => {
  it('transfers (100 an hour), withdrawals (10 an hour) and tips (20 an hour) are limited per caller, counted before validation; another caller is not', async () => {
    const [an, binh] = [await registerVerified(), await registerVerified()];
    const transfer = (who: Tokens) =>
      call('POST', '/wallet/transfers', { token: who.accessToken, body: { toUserId: 'x', amount: 1 }, headers: { 'idempotency-key': key() } });
    const statuses: number[] = [];
    for (let batch = 0; batch < 10; batch++) statuses.push(...(await Promise.all(Array.from({ length: 10 }, () => transfer(an)))).map((r) => r.status));
    expect(statuses.every((s) => s === 400)).toBe(true);
    const limited = await transfer(an);
    expect(limited).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await transfer(binh)).status).toBe(400);

    const drv = await registerVerified();
    await db()
      .collection(USERS)
      .doc(drv.user.id)
      .update({ roles: ['USER', 'DRIVER'] });
    const driverTokens = (await call('POST', '/auth/login/password', { body: { email: drv.email, password: drv.password } })).body as Tokens;
    const withdraw = () => call('POST', '/wallet/withdrawals', { token: driverTokens.accessToken, body: { amount: 1 }, headers: { 'idempotency-key': key() } });
    const asked = await Promise.all(Array.from({ length: 10 }, withdraw));
    expect(asked.map((r) => r.status)).toEqual(Array.from({ length: 10 }, () => 400));
    expect((await withdraw()).status).toBe(429);

    const tip = () => call('POST', '/rides/no-such-ride/tip', { token: binh.accessToken, body: { amount: 1 }, headers: { 'idempotency-key': key() } });
    expect((await Promise.all(Array.from({ length: 20 }, tip))).map((r) => r.status)).toEqual(Array.from({ length: 20 }, () => 400));
    expect((await tip()).body.code).toBe('RATE_LIMITED');
  });
});
