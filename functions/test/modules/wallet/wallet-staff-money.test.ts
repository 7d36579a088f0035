import { randomUUID } from 'node:crypto';
import { systemAccount, userAccount } from '../../../src/modules/wallet/ledger.model';
import { ledgerRepo } from '../../../src/modules/wallet/ledger.repo';
import { db, inTransaction } from '../../../src/platform/core/firebase/firebase';
import { vnd } from '../../../src/platform/kits/money/money';
import { registerVerified, type Tokens } from '../../helpers/accounts';
import { withStaff } from '../../helpers/admins';
import { call } from '../../helpers/api';
import { expectPublished } from '../../helpers/contract';
import { requireEmulators } from '../../helpers/emulators';
import { deliverVnpayIpn, vnpayNotice } from '../../helpers/gateways';
import { LEDGER_TRANSFERS, WITHDRAWALS } from '../../../src/modules/wallet/wallet.collections';
import { balance, earnings, topUp } from '../../helpers/wallet';
import { walletRide } from '../../helpers/payments';
import { driverAccount } from '../../helpers/drivers';

beforeAll(requireEmulators);

// Review of the wallet and payments change: four eyes on staff refunds (finding 1), split adjustments counted per
// day (2), staff ids out of what users read (4), keyless repeats (5), requesters re-checked at approval (6).
// WALLET_ADJUSTMENT_APPROVAL_VND is 5,000,000 here (its default).
const key = () => randomUUID();
const adjust = (by: Tokens, body: Record<string, unknown>) =>
  call('POST', '/wallet/admin/adjustments', {
    token: by.accessToken,
    body: { direction: 'CREDIT', reason: 'goodwill credit', ...body },
    headers: { 'idempotency-key': key() },
  });
const decideAdjustment = (by: Tokens, id: string, action: 'approve' | 'reject', body: Record<string, unknown> = {}) =>
  call('POST', `/wallet/admin/adjustments/${id}/${action}`, { token: by.accessToken, body });
const staffRefund = (by: Tokens, body: Record<string, unknown>, idempotencyKey: string | null = key()) =>
  call('POST', '/payments/admin/refund', { token: by.accessToken, body, ...(idempotencyKey ? { headers: { 'idempotency-key': idempotencyKey } } : {}) });
const decideRefund = (by: Tokens, id: string, action: 'approve' | 'reject', body: Record<string, unknown> = {}) =>
  call('POST', `/payments/admin/staff-refunds/${id}/${action}`, { token: by.accessToken, body });

const { admin: fullAdmin, limitedAdmin } = withStaff();
let admin: Tokens;
beforeAll(() => {
  admin = fullAdmin();
});

describe('staff refunds take a second administrator (finding 1)', () => {
  it('above the threshold a staff refund waits PENDING: listed, not approved by its requester, approved by another (money moves once) or rejected', async () => {
    const [requester, second, payer] = [await limitedAdmin(['payments.manage']), await limitedAdmin(['payments.manage']), await registerVerified()];
    const paid = await topUp(payer, 6_000_000);
    const asked = await staffRefund(requester, { paymentId: paid.id, reason: 'duplicate top-up, bank ticket 77' });
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({
      status: 'SUCCEEDED',
      refundedAmount: 0,
      refunds: [],
      refundRequest: { status: 'PENDING', amount: 6_000_000, causes: ['AMOUNT'], requestedBy: requester.user.id },
    });
    expect(await balance(payer)).toBe(6_000_000);
    const id = asked.body.refundRequest.id as string;
    expect(
      (await call('GET', '/payments/admin/staff-refunds?status=PENDING&limit=100', { token: second.accessToken })).body.items.map((r: { id: string }) => r.id),
    ).toContain(id);
    // The same key answers the same request; nothing moves twice.
    expect((await decideRefund(requester, id, 'approve')).body.code).toBe('STAFF_REFUND_SELF_APPROVAL');
    expect((await decideRefund(payer, id, 'approve')).status).toBe(403);
    expect(await balance(payer)).toBe(6_000_000);

    const approvals = await Promise.all([decideRefund(second, id, 'approve', { reason: 'ticket checked' }), decideRefund(admin, id, 'approve')]);
    expect(approvals.filter((r) => r.status === 200)).toHaveLength(1);
    expect(approvals.find((r) => r.status === 200)!.body).toMatchObject({
      status: 'APPROVED',
      payment: { status: 'REFUNDED', refunds: [expect.objectContaining({ id, amount: 6_000_000, by: 'STAFF' })] },
    });
    expect(approvals.filter((r) => r.status !== 200).map((r) => r.body.code)).toEqual(['STAFF_REFUND_TRANSITION']);
    expect(await balance(payer)).toBe(0);
    expect((await call('GET', `/wallet/admin/users/${payer.user.id}/check`, { token: admin.accessToken })).body.ok).toBe(true);

    const other = await topUp(payer, 5_500_000);
    const rejected = await staffRefund(requester, { paymentId: other.id, reason: 'typed the wrong payment' });
    expect((await decideRefund(requester, rejected.body.refundRequest.id, 'reject', { reason: 'wrong payment' })).body.status).toBe('REJECTED');
    expect((await decideRefund(second, rejected.body.refundRequest.id, 'approve')).body.code).toBe('STAFF_REFUND_TRANSITION');
    expect(await balance(payer)).toBe(5_500_000);
  });

  it('a small staff refund that would take the payee’s earnings below zero waits for a second administrator too', async () => {
    const [requester, second, payer, drv] = [
      await limitedAdmin(['payments.manage']),
      await limitedAdmin(['payments.manage']),
      await registerVerified(),
      await driverAccount(),
    ];
    const ride = await walletRide(payer, drv);
    expect(await earnings(drv)).toBe(40_000);
    // The driver has already had 30,000 of it (paid out, say): 10,000 left, the refund takes 40,000.
    await inTransaction((tx) =>
      ledgerRepo.post(
        tx,
        [
          {
            kind: 'ADJUSTMENT',
            debit: userAccount('EARNINGS', drv.user.id),
            credit: systemAccount('platform_adjustments'),
            amount: vnd(30_000),
            memo: 'paid out for the test',
          },
        ],
        { operationId: `test-out-${key()}`, by: 'test', now: Date.now() },
      ),
    );
    const asked = await staffRefund(requester, { paymentId: ride.id, reason: 'driver never came' });
    expect(asked.body).toMatchObject({ status: 'SUCCEEDED', refundRequest: { status: 'PENDING', causes: ['EARNINGS_BELOW_ZERO'] } });
    expect([await balance(payer), await earnings(drv)]).toEqual([0, 10_000]);
    expect((await decideRefund(second, asked.body.refundRequest.id, 'approve')).body.payment.status).toBe('REFUNDED');
    expect([await balance(payer), await earnings(drv)]).toEqual([50_000, -30_000]);
  });

  it('staff refunds and adjustments share a per-administrator rate limit (staff-money, 30 an hour)', async () => {
    const [busy, other] = [await limitedAdmin(['payments.manage']), await limitedAdmin(['payments.manage'])];
    const bad = (who: Tokens, i: number) => (i % 2 === 0 ? adjust(who, { userId: 'x', amount: 'lots' }) : staffRefund(who, { paymentId: 'x' }));
    const statuses: number[] = [];
    for (let batch = 0; batch < 3; batch++) statuses.push(...(await Promise.all(Array.from({ length: 10 }, (_, i) => bad(busy, i)))).map((r) => r.status));
    expect(statuses.every((s) => s === 400)).toBe(true);
    expect(await staffRefund(busy, { paymentId: 'x' })).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
    expect((await adjust(busy, { userId: 'x', amount: 'lots' })).status).toBe(429);
    expect((await adjust(other, { userId: 'x', amount: 'lots' })).status).toBe(400);
  });
});

describe('split staff money is counted per Vietnam day (finding 2)', () => {
  it('once an administrator’s day passes the threshold, new adjustments and staff refunds wait PENDING, whoever they go to', async () => {
    const [requester, u1, u2, u3] = [await limitedAdmin(['payments.manage']), await registerVerified(), await registerVerified(), await registerVerified()];
    expect((await adjust(requester, { userId: u1.user.id, amount: 4_000_000 })).body.status).toBe('APPLIED');
    expect((await adjust(requester, { userId: u2.user.id, amount: 1_000_000 })).body.status).toBe('APPLIED');
    expect((await adjust(requester, { userId: u3.user.id, amount: 1 })).body).toMatchObject({ status: 'PENDING', transferId: null });
    expect(await balance(u3)).toBe(0);
    const paid = await topUp(u3, 20_000);
    expect((await staffRefund(requester, { paymentId: paid.id, reason: 'goodwill refund' })).body.refundRequest).toMatchObject({
      status: 'PENDING',
      causes: ['DAILY_TOTAL'],
    });
    expect(await balance(u3)).toBe(20_000);
    // Another administrator's day is its own.
    expect((await adjust(await limitedAdmin(['payments.manage']), { userId: u3.user.id, amount: 1_000 })).body.status).toBe('APPLIED');
  });

  it('staff money to one user is counted across administrators; racing adjustments never pass the threshold', async () => {
    const [a, b, user] = [await limitedAdmin(['payments.manage']), await limitedAdmin(['payments.manage']), await registerVerified()];
    expect((await adjust(a, { userId: user.user.id, amount: 3_000_000 })).body.status).toBe('APPLIED');
    expect((await adjust(b, { userId: user.user.id, amount: 3_000_000 })).body.status).toBe('PENDING');
    expect(await balance(user)).toBe(3_000_000);

    const [racer, target] = [await limitedAdmin(['payments.manage']), await registerVerified()];
    const results = await Promise.all(Array.from({ length: 7 }, () => adjust(racer, { userId: target.user.id, amount: 1_000_000 })));
    const applied = results.filter((r) => r.body.status === 'APPLIED').length;
    expect(applied).toBeLessThanOrEqual(5);
    expect(results.every((r) => r.body.status === 'APPLIED' || r.body.status === 'PENDING' || r.body.code === 'CONTENDED')).toBe(true);
    expect(await balance(target)).toBe(applied * 1_000_000);
    expect((await adjust(racer, { userId: target.user.id, amount: 5_000_000 - applied * 1_000_000 + 1 })).body.status).toBe('PENDING');
  });
});

describe('staff ids stay out of what users read (finding 4)', () => {
  it('ledger entries of adjustments and withdrawal decisions say STAFF; the withdrawal says STAFF to its owner, staff see the id', async () => {
    const [manager, drv] = [await limitedAdmin(['payments.manage']), await driverAccount()];
    const adjusted = await adjust(manager, { userId: drv.user.id, amount: 30_000 });
    const transfer = (await db().collection(LEDGER_TRANSFERS).doc(adjusted.body.transferId).get()).data()!;
    expect(transfer).toMatchObject({ by: 'STAFF', owners: [drv.user.id] });

    await inTransaction((tx) =>
      ledgerRepo.post(
        tx,
        [
          {
            kind: 'ADJUSTMENT',
            debit: systemAccount('platform_adjustments'),
            credit: userAccount('EARNINGS', drv.user.id),
            amount: vnd(300_000),
            memo: 'earnings for the test',
          },
        ],
        { operationId: `test-earnings-${key()}`, by: 'test', now: Date.now() },
      ),
    );
    const asked = await call('POST', '/wallet/withdrawals', {
      token: drv.accessToken,
      body: { amount: 200_000, bankAccount: { bankCode: 'VCB', accountNumber: '0123456789', accountName: 'NGUYEN VAN A' } },
      headers: { 'idempotency-key': key() },
    });
    const approved = await call('POST', `/wallet/admin/withdrawals/${asked.body.id}/approve`, { token: manager.accessToken, body: {} });
    expect(approved.body).toMatchObject({ status: 'APPROVED', decidedBy: manager.user.id });
    expect((await call('GET', `/wallet/withdrawals/${asked.body.id}`, { token: drv.accessToken })).body).toMatchObject({
      status: 'APPROVED',
      decidedBy: 'STAFF',
    });
    expect(JSON.stringify((await call('GET', '/wallet/withdrawals', { token: drv.accessToken })).body)).not.toContain(manager.user.id);
    expect(JSON.stringify((await db().collection(WITHDRAWALS).doc(asked.body.id).get()).data())).not.toContain(manager.user.id);
    // The owner listens to it: it parses with its published schema (decidedAt a Timestamp).
    expect((await expectPublished('WithdrawalDocument', `${WITHDRAWALS}/${asked.body.id}`)).decidedAt.toMillis()).toBe(Date.parse(approved.body.decidedAt));
    const owned = await db().collection(LEDGER_TRANSFERS).where('owners', 'array-contains', drv.user.id).get();
    expect(owned.docs.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(owned.docs.map((d) => d.data()))).not.toContain(manager.user.id);
    const staffList = await call('GET', `/wallet/admin/withdrawals?userId=${drv.user.id}`, { token: admin.accessToken });
    expect(staffList.body.items[0]).toMatchObject({ id: asked.body.id, decidedBy: manager.user.id });
  });
});

describe('a keyless repeat answers only the same ask (finding 5)', () => {
  it('staff and payers: the same amount and reason answer the payment as it is; another is 409 PAYMENT_REFUND_KEY_REQUIRED', async () => {
    const [manager, payer] = [await limitedAdmin(['payments.manage']), await registerVerified()];
    const paid = await topUp(payer, 100_000);
    expect((await staffRefund(manager, { paymentId: paid.id, amount: 10_000, reason: 'partial goodwill' }, null)).body.refundedAmount).toBe(10_000);
    expect((await staffRefund(manager, { paymentId: paid.id, amount: 10_000, reason: 'partial goodwill' }, null)).body.refunds).toHaveLength(1);
    expect(await staffRefund(manager, { paymentId: paid.id, amount: 20_000, reason: 'partial goodwill' }, null)).toMatchObject({
      status: 409,
      body: { code: 'PAYMENT_REFUND_KEY_REQUIRED' },
    });
    expect((await staffRefund(manager, { paymentId: paid.id, amount: 10_000, reason: 'another reason' }, null)).body.code).toBe('PAYMENT_REFUND_KEY_REQUIRED');
    expect((await staffRefund(manager, { paymentId: paid.id, amount: 20_000, reason: 'partial goodwill' })).body.refundedAmount).toBe(30_000);

    const payerRefund = (body: Record<string, unknown>) =>
      call('POST', '/payments/refund', { token: payer.accessToken, body: { paymentId: paid.id, ...body } });
    expect((await payerRefund({ amount: 5_000, reason: 'my own back' })).body.refundedAmount).toBe(35_000);
    expect((await payerRefund({ amount: 5_000, reason: 'my own back' })).body.refunds).toHaveLength(3);
    expect((await payerRefund({ amount: 7_000, reason: 'my own back' })).body.code).toBe('PAYMENT_REFUND_KEY_REQUIRED');
    expect((await payerRefund({ reason: 'my own back' })).body.code).toBe('PAYMENT_REFUND_KEY_REQUIRED');
    expect(await balance(payer)).toBe(65_000);
  });
});

describe('a requester who lost the right no longer vouches (finding 6)', () => {
  it('a PENDING adjustment or staff refund whose requester was narrowed or locked cannot be approved, only rejected', async () => {
    const [narrowedLater, lockedLater, second, user] = [
      await limitedAdmin(['payments.manage']),
      await limitedAdmin(['payments.manage']),
      await limitedAdmin(['payments.manage']),
      await registerVerified(),
    ];
    const pendingAdjustment = await adjust(narrowedLater, { userId: user.user.id, amount: 6_000_000 });
    const paid = await topUp(user, 5_100_000);
    const pendingRefund = await staffRefund(lockedLater, { paymentId: paid.id, reason: 'duplicate top-up' });
    expect([pendingAdjustment.body.status, pendingRefund.body.refundRequest.status]).toEqual(['PENDING', 'PENDING']);

    expect((await call('PATCH', `/users/admin/${narrowedLater.user.id}`, { token: admin.accessToken, body: { permissions: [] } })).status).toBe(200);
    expect((await call('DELETE', `/users/admin/${lockedLater.user.id}`, { token: admin.accessToken })).status).toBe(200);

    expect(await decideAdjustment(second, pendingAdjustment.body.id, 'approve')).toMatchObject({ status: 409, body: { code: 'ADJUSTMENT_REQUESTER_REVOKED' } });
    expect(await decideRefund(second, pendingRefund.body.refundRequest.id, 'approve')).toMatchObject({
      status: 409,
      body: { code: 'STAFF_REFUND_REQUESTER_REVOKED' },
    });
    expect(await balance(user)).toBe(5_100_000);
    expect((await decideAdjustment(second, pendingAdjustment.body.id, 'reject', { reason: 'requester left' })).body.status).toBe('REJECTED');
    expect((await decideRefund(second, pendingRefund.body.refundRequest.id, 'reject', { reason: 'requester left' })).body.status).toBe('REJECTED');
    await call('PATCH', `/users/admin/${lockedLater.user.id}`, { token: admin.accessToken, body: { disabled: false } });
  });
});

describe('a refund the gateway finally refused (finding 7)', () => {
  it('is put back in the payer’s wallet by staff, balanced in the ledger, once; a large one needs a second administrator', async () => {
    const [manager, second, payer] = [await limitedAdmin(['payments.manage']), await limitedAdmin(['payments.manage']), await registerVerified()];
    const opened = (
      await call('POST', '/wallet/topups', { token: payer.accessToken, body: { amount: 90_000, provider: 'VNPAY' }, headers: { 'idempotency-key': key() } })
    ).body;
    await deliverVnpayIpn(vnpayNotice(opened.paymentUrl));
    // The fake gateway refuses refunds whose reason says so: the wallet is debited, the money never arrives.
    const failed = await call('POST', '/payments/refund', {
      token: payer.accessToken,
      body: { paymentId: opened.id, amount: 20_000, reason: 'fake-fail' },
      headers: { 'idempotency-key': key() },
    });
    expect(failed.body.refunds[0].gateway.state).toBe('FAILED');
    expect(await balance(payer)).toBe(70_000);
    const refundId = failed.body.refunds[0].id as string;
    const reverse = (by: Tokens, id = refundId, paymentId = opened.id) =>
      call('POST', `/payments/admin/${paymentId}/refunds/${id}/reverse`, { token: by.accessToken });

    const narrowed = await limitedAdmin([]);
    expect((await reverse(narrowed)).body.code).toBe('PERMISSION_REQUIRED');
    expect((await reverse(payer)).status).toBe(403);
    const done = await reverse(manager);
    expect(done.body).toMatchObject({
      refundRequest: null,
      refunds: [expect.objectContaining({ id: refundId, gateway: expect.objectContaining({ state: 'REVERSED' }) })],
    });
    expect(await balance(payer)).toBe(90_000);
    expect((await reverse(manager)).body.code).toBe('STAFF_REFUND_REVERSAL');
    expect((await call('POST', `/payments/admin/${opened.id}/refunds/${refundId}/retry`, { token: manager.accessToken })).body.code).toBe('PAYMENT_TRANSITION');
    expect(await balance(payer)).toBe(90_000);
    expect((await call('GET', `/wallet/admin/users/${payer.user.id}/check`, { token: admin.accessToken })).body.ok).toBe(true);

    const big = (
      await call('POST', '/wallet/topups', { token: payer.accessToken, body: { amount: 6_000_000, provider: 'VNPAY' }, headers: { 'idempotency-key': key() } })
    ).body;
    await deliverVnpayIpn(vnpayNotice(big.paymentUrl));
    const bigFail = await call('POST', '/payments/refund', {
      token: payer.accessToken,
      body: { paymentId: big.id, reason: 'fake-fail' },
      headers: { 'idempotency-key': key() },
    });
    expect(bigFail.body.refunds[0].gateway.state).toBe('FAILED');
    const pending = await reverse(manager, bigFail.body.refunds[0].id, big.id);
    expect(pending.body.refundRequest).toMatchObject({ kind: 'REVERSAL', status: 'PENDING', causes: ['AMOUNT'], amount: 6_000_000 });
    expect(await balance(payer)).toBe(90_000);
    expect((await decideRefund(manager, pending.body.refundRequest.id, 'approve')).body.code).toBe('STAFF_REFUND_SELF_APPROVAL');
    expect((await decideRefund(second, pending.body.refundRequest.id, 'approve')).body.payment.refunds[0].gateway.state).toBe('REVERSED');
    expect(await balance(payer)).toBe(6_090_000);
    expect((await call('GET', `/wallet/admin/users/${payer.user.id}/check`, { token: admin.accessToken })).body.ok).toBe(true);
  });
});
