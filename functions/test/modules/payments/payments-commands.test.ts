import { randomUUID } from 'node:crypto';
import { Timestamp } from 'firebase-admin/firestore';
import { paymentCommands } from '../../../src/modules/payments';
import { onPaymentExpiry } from '../../../src/modules/payments/payments.tasks';
import { db } from '../../../src/platform/core/firebase/firebase';
import { vnd } from '../../../src/platform/kits/money/money';
import { adminTokens, registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { testConfig } from '../../helpers/config';
import { requireEmulators } from '../../helpers/emulators';
import { GATEWAY_ENV } from '../../helpers/gateways';
import { waitFor } from '../../helpers/wait';
import { PAYMENTS } from '../../../src/modules/payments/payments.collections';
import { EVENTS } from '../../../src/platform/kits/state-machine/state-machine';
import { earningsOf, ledgerCheck, postTopUp, walletOf } from '../../helpers/wallet';
import { driverAccount } from '../../helpers/drivers';
import { inboxOf } from '../../helpers/notifications';

beforeAll(requireEmulators);

// The commands rides, orders and bookings pay through, called as those modules will call them.
const config = testConfig({ PAYMENTS_MOCK: 'true', VNPAY_TMN_CODE: GATEWAY_ENV.vnpayTmn, VNPAY_HASH_SECRET: GATEWAY_ENV.vnpaySecret });
const payments = paymentCommands(config);
type Person = Tokens & { email: string };
const key = () => randomUUID();
const ride = () => ({ type: 'RIDE', id: `ride-${randomUUID()}` });

describe('charge', () => {
  it('WALLET: pays the payee their share and the platform its fee at once; retried with the same key, once', async () => {
    const [rider, taxi] = [await registerVerified(), await driverAccount()];
    await postTopUp(rider, 100_000);
    const input = {
      payerId: rider.user.id,
      amount: vnd(45_000),
      purpose: 'RIDE' as const,
      ref: ride(),
      method: 'WALLET' as const,
      payeeId: taxi.user.id,
      feeBp: 2_000,
      description: 'Ride to Ben Thanh',
      idempotencyKey: key(),
    };
    const [a, b] = await Promise.all([payments.charge(input), payments.charge(input)]);
    expect(a.id).toBe(b.id);
    expect(a).toMatchObject({ status: 'SUCCEEDED', method: 'WALLET', amount: 45_000, payeeId: taxi.user.id });
    expect(await walletOf(rider)).toMatchObject({ balance: 55_000 });
    expect(await earningsOf(taxi)).toMatchObject({ balance: 36_000, available: 36_000 });
    await expect(payments.charge({ ...input, amount: vnd(60_000), idempotencyKey: key() })).rejects.toMatchObject({
      code: 'WALLET_INSUFFICIENT_FUNDS',
      statusCode: 409,
    });
    expect((await ledgerCheck(rider.user.id)).ok).toBe(true);
    expect((await ledgerCheck(taxi.user.id)).ok).toBe(true);
  });

  it("WALLET in the caller's transaction: refused before any write; written with the caller's writes; the same payment as charge under its key", async () => {
    const rider = await registerVerified();
    await postTopUp(rider, 50_000);
    const input = {
      payerId: rider.user.id,
      amount: vnd(30_000),
      purpose: 'BOOKING' as const,
      ref: { type: 'BOOKING', id: `b-${randomUUID()}` },
      description: 'Stay',
      idempotencyKey: key(),
    };
    const marker = db().collection('test_markers').doc(`txcharge-${randomUUID()}`);
    await expect(
      db().runTransaction(async (tx) => {
        const prepared = await payments.txCharge(tx, { ...input, amount: vnd(80_000), idempotencyKey: key() });
        prepared.write();
        tx.set(marker, { written: true });
      }),
    ).rejects.toMatchObject({ code: 'WALLET_INSUFFICIENT_FUNDS', statusCode: 409 });
    expect((await marker.get()).exists).toBe(false);
    const made = await db().runTransaction(async (tx) => {
      const prepared = await payments.txCharge(tx, input);
      prepared.write();
      tx.set(marker, { written: true });
      return prepared.payment;
    });
    expect(made).toMatchObject({ status: 'SUCCEEDED', method: 'WALLET', amount: 30_000 });
    expect((await marker.get()).exists).toBe(true);
    // `charge` under the same key answers that payment and takes nothing more; so does txCharge again.
    expect((await payments.charge({ ...input, method: 'WALLET' })).id).toBe(made.id);
    const again = await db().runTransaction(async (tx) => {
      const prepared = await payments.txCharge(tx, input);
      prepared.write();
      return prepared.payment;
    });
    expect(again.id).toBe(made.id);
    expect(await walletOf(rider)).toMatchObject({ balance: 20_000 });
    expect((await ledgerCheck(rider.user.id)).ok).toBe(true);
  });

  it("CASH: recorded as paid; the driver's earnings owe the commission (may go below zero)", async () => {
    const [rider, taxi] = [await registerVerified(), await driverAccount()];
    const paid = await payments.charge({
      payerId: rider.user.id,
      amount: vnd(50_000),
      purpose: 'RIDE',
      ref: ride(),
      method: 'CASH',
      payeeId: taxi.user.id,
      feeBp: 2_000,
      description: 'Cash ride',
      idempotencyKey: key(),
    });
    expect(paid).toMatchObject({ status: 'SUCCEEDED', method: 'CASH' });
    expect(await earningsOf(taxi)).toMatchObject({ balance: -10_000, available: 0 });
    expect(await walletOf(rider)).toMatchObject({ balance: 0 });
    await expect(payments.refund(paid.id, { reason: 'cash', by: 'system:test', idempotencyKey: key() })).rejects.toMatchObject({
      code: 'PAYMENT_NOT_REFUNDABLE',
    });
  });

  it('GATEWAY: a PENDING payment with a payment URL (settled by the gateway like a top-up)', async () => {
    const buyer = await registerVerified();
    const pending = await payments.charge({
      payerId: buyer.user.id,
      amount: vnd(99_000),
      purpose: 'ORDER',
      ref: { type: 'ORDER', id: randomUUID() },
      method: 'GATEWAY',
      provider: 'VNPAY',
      description: 'Don hang',
      idempotencyKey: key(),
    });
    expect(pending).toMatchObject({ status: 'PENDING', provider: 'VNPAY', paymentUrl: expect.stringContaining('vnp_TxnRef=') });
  });
});

describe('hold, capture, release', () => {
  it('a hold moves money to held; capturing less than held pays the driver and returns the rest; release returns it all', async () => {
    const [rider, taxi] = [await registerVerified(), await driverAccount()];
    await postTopUp(rider, 200_000);
    const hold = await payments.hold({
      payerId: rider.user.id,
      amount: vnd(80_000),
      purpose: 'RIDE',
      ref: ride(),
      description: 'Prepaid ride',
      idempotencyKey: key(),
    });
    expect(hold).toMatchObject({ status: 'AUTHORIZED', heldAmount: 80_000 });
    expect(await walletOf(rider)).toEqual(expect.objectContaining({ balance: 120_000, held: 80_000 }));
    const captured = await payments.capture(hold.id, { amount: vnd(65_000), payeeId: taxi.user.id, feeBp: 1_500 });
    expect(captured).toMatchObject({ status: 'SUCCEEDED', capturedAmount: 65_000, refundable: 65_000 });
    expect(await walletOf(rider)).toEqual(expect.objectContaining({ balance: 135_000, held: 0 }));
    expect((await earningsOf(taxi)).balance).toBe(55_250);
    await expect(payments.capture(hold.id)).rejects.toMatchObject({ code: 'PAYMENT_TRANSITION' });

    const second = await payments.hold({
      payerId: rider.user.id,
      amount: vnd(50_000),
      purpose: 'RIDE',
      ref: ride(),
      description: 'Cancelled ride',
      idempotencyKey: key(),
    });
    await expect(payments.capture(second.id, { amount: vnd(50_001) })).rejects.toMatchObject({ code: 'PAYMENT_CAPTURE_EXCEEDS' });
    expect((await payments.release(second.id, 'rider cancelled')).status).toBe('CANCELLED');
    expect(await walletOf(rider)).toEqual(expect.objectContaining({ balance: 135_000, held: 0 }));
    await expect(payments.release(second.id, 'twice')).rejects.toMatchObject({ code: 'PAYMENT_TRANSITION' });
    await expect(
      payments.hold({ payerId: rider.user.id, amount: vnd(135_001), purpose: 'RIDE', ref: ride(), description: 'Too much', idempotencyKey: key() }),
    ).rejects.toMatchObject({ code: 'WALLET_INSUFFICIENT_FUNDS' });
    expect((await ledgerCheck(rider.user.id)).ok).toBe(true);
  });

  it('refunds of a split payment come back from payee and platform in proportion, exactly on the last one', async () => {
    const [rider, taxi] = [await registerVerified(), await driverAccount()];
    await postTopUp(rider, 100_000);
    const paid = await payments.charge({
      payerId: rider.user.id,
      amount: vnd(33_333),
      purpose: 'RIDE',
      ref: ride(),
      method: 'WALLET',
      payeeId: taxi.user.id,
      feeBp: 2_000,
      description: 'Split',
      idempotencyKey: key(),
    });
    expect((await earningsOf(taxi)).balance).toBe(26_666);
    await payments.refund(paid.id, { amount: vnd(10_001), reason: 'detour', by: 'system:rides', idempotencyKey: key() });
    await payments.refund(paid.id, { amount: vnd(7), reason: 'rounding', by: 'system:rides', idempotencyKey: key() });
    const last = await payments.refund(paid.id, { reason: 'cancelled after all', by: 'system:rides', idempotencyKey: key() });
    expect(last).toMatchObject({ status: 'REFUNDED', refundedAmount: 33_333, refunds: [expect.anything(), expect.anything(), expect.anything()] });
    expect(await walletOf(rider)).toMatchObject({ balance: 100_000 });
    expect((await earningsOf(taxi)).balance).toBe(0);
    expect((await ledgerCheck(taxi.user.id)).ok).toBe(true);
  });
});

describe('withdrawals', () => {
  it('reserve on request, a second one over what is left is 409; approve moves to payouts in transit; reject and cancel free the reserve', async () => {
    const [rider, taxi, other, admin] = [await registerVerified(), await driverAccount(), await driverAccount(), await adminTokens()];
    await postTopUp(rider, 500_000);
    await payments.charge({
      payerId: rider.user.id,
      amount: vnd(400_000),
      purpose: 'RIDE',
      ref: ride(),
      method: 'WALLET',
      payeeId: taxi.user.id,
      feeBp: 0,
      description: 'Long ride',
      idempotencyKey: key(),
    });
    const bankAccount = { bankCode: 'VCB', accountNumber: '0123456789', accountName: 'NGUYEN VAN TAI' };
    const ask = (who: Person, amount: number) =>
      call('POST', '/wallet/withdrawals', { token: who.accessToken, body: { amount, bankAccount }, headers: { 'idempotency-key': key() } });
    const first = await ask(taxi, 300_000);
    expect(first).toMatchObject({ status: 201, body: { status: 'PENDING', amount: 300_000 } });
    expect(await earningsOf(taxi)).toMatchObject({ balance: 400_000, reserved: 300_000, available: 100_000 });
    expect((await ask(taxi, 100_001)).body.code).toBe('WALLET_INSUFFICIENT_FUNDS');
    expect((await ask(rider, 100_000)).status).toBe(403);
    expect((await ask(taxi, 49_999)).status).toBe(400);
    const second = await ask(taxi, 100_000);
    expect((await call('GET', `/wallet/withdrawals/${second.body.id}`, { token: other.accessToken })).status).toBe(404);
    expect((await call('POST', `/wallet/withdrawals/${second.body.id}/cancel`, { token: other.accessToken })).status).toBe(404);
    expect((await call('POST', `/wallet/withdrawals/${second.body.id}/cancel`, { token: taxi.accessToken })).body.status).toBe('CANCELLED');
    expect((await call('POST', `/wallet/admin/withdrawals/${first.body.id}/approve`, { token: taxi.accessToken, body: {} })).status).toBe(403);
    const approved = await call('POST', `/wallet/admin/withdrawals/${first.body.id}/approve`, { token: admin.accessToken, body: {} });
    expect(approved.body).toMatchObject({ status: 'APPROVED', decidedBy: admin.user.id });
    expect(await earningsOf(taxi)).toMatchObject({ balance: 100_000, reserved: 0, available: 100_000 });
    expect((await call('POST', `/wallet/admin/withdrawals/${first.body.id}/reject`, { token: admin.accessToken, body: { reason: 'late' } })).body.code).toBe(
      'WITHDRAWAL_TRANSITION',
    );
    const third = await ask(taxi, 100_000);
    expect((await call('POST', `/wallet/admin/withdrawals/${third.body.id}/reject`, { token: admin.accessToken, body: {} })).status).toBe(400);
    expect(
      (await call('POST', `/wallet/admin/withdrawals/${third.body.id}/reject`, { token: admin.accessToken, body: { reason: 'Account name does not match' } }))
        .body.status,
    ).toBe('REJECTED');
    expect(await earningsOf(taxi)).toMatchObject({ balance: 100_000, reserved: 0 });
    const mine = await call('GET', '/wallet/withdrawals', { token: taxi.accessToken });
    expect(mine.body.items.map((w: { status: string }) => w.status)).toEqual(['REJECTED', 'CANCELLED', 'APPROVED']);
    const queue = await call('GET', `/wallet/admin/withdrawals?status=REJECTED&userId=${taxi.user.id}`, { token: admin.accessToken });
    expect(queue.body.items.map((w: { id: string }) => w.id)).toEqual([third.body.id]);
    const notices = await waitFor(
      async () => {
        const items = await inboxOf(taxi.user.id, { kind: 'WALLET' });
        return items.length >= 2 ? items : undefined;
      },
      { what: 'the withdrawal notices' },
    );
    expect(notices.map((n) => n.event).sort()).toEqual(['wallet.withdrawal.approved', 'wallet.withdrawal.rejected']);
    expect(notices[0].data).toMatchObject({ surface: 'DRV', deepLink: { tab: 'AccountTab', screen: 'Earnings' } });
    expect((await ledgerCheck(taxi.user.id)).ok).toBe(true);
  });
});

describe('the expiry timer', () => {
  it('refuses to run early (Cloud Tasks retries it), expires an overdue PENDING payment once, then does nothing', async () => {
    const buyer = await registerVerified();
    const pending = await payments.charge({
      payerId: buyer.user.id,
      amount: vnd(20_000),
      purpose: 'ORDER',
      ref: { type: 'ORDER', id: randomUUID() },
      method: 'GATEWAY',
      provider: 'VNPAY',
      description: 'Timer',
      idempotencyKey: key(),
    });
    await expect(onPaymentExpiry({ paymentId: pending.id }, config)).rejects.toThrow(/not due yet/);
    await db()
      .collection(PAYMENTS)
      .doc(pending.id)
      .update({ expiresAt: Timestamp.fromMillis(Date.now() - 1) });
    await onPaymentExpiry({ paymentId: pending.id }, config);
    expect((await payments.get(pending.id)).status).toBe('EXPIRED');
    await onPaymentExpiry({ paymentId: pending.id }, config);
    const moves = await db().collection(PAYMENTS).doc(pending.id).collection(EVENTS).get();
    expect(moves.docs.map((d) => d.get('to'))).toEqual(['EXPIRED']);
  });
});
