import { randomUUID } from 'node:crypto';
import { Timestamp } from 'firebase-admin/firestore';
import { db } from '../../../src/platform/core/firebase/firebase';
import { adminTokens, registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { expectPublished } from '../../helpers/contract';
import { requireEmulators } from '../../helpers/emulators';
import {
  deliverMomoIpn,
  deliverVnpayIpn,
  gatewayRequests,
  momoCreateRequestOf,
  momoNotice,
  readVnpayUrl,
  vnpayNotice,
  vnpayQueryString,
} from '../../helpers/gateways';
import { waitFor } from '../../helpers/wait';
import { PAYMENTS } from '../../../src/modules/payments/payments.collections';
import { balance, postTopUp } from '../../helpers/wallet';
import { inboxOf } from '../../helpers/notifications';

beforeAll(requireEmulators);

type Person = Tokens & { email: string };
const key = () => randomUUID();
const payment = async (who: Person, id: string) => (await call('GET', `/payments/${id}`, { token: who.accessToken })).body;
const refund = (who: Person, body: Record<string, unknown>, idempotencyKey = key()) =>
  call('POST', '/payments/refund', { token: who.accessToken, body, headers: { 'idempotency-key': idempotencyKey } });

describe('VNPay top-up', () => {
  it('answers a signed payment URL; an IPN delivered 5 times credits once; forged ones change nothing', async () => {
    const an = await registerVerified();
    const opened = await postTopUp(an, 250_000, 'VNPAY');
    expect(opened).toMatchObject({
      status: 201,
      body: { status: 'PENDING', provider: 'VNPAY', amount: 250_000, paymentUrl: expect.stringContaining('vnp_SecureHash=') },
    });
    const order = readVnpayUrl(opened.body.paymentUrl);
    expect(order).toMatchObject({
      vnp_Version: '2.1.0',
      vnp_Command: 'pay',
      vnp_Amount: '25000000',
      vnp_CurrCode: 'VND',
      vnp_TxnRef: opened.body.id,
      vnp_TmnCode: 'SUPERAPP',
    });
    expect(order.vnp_ReturnUrl).toMatch(/\/api\/v1\/payments\/vnpay\/return$/);

    // Forged: wrong secret (97), another amount (04), an order we never made (01), a non-numeric amount (97: its hash fails first).
    expect((await deliverVnpayIpn(vnpayNotice(opened.body.paymentUrl), 'not-the-merchant-secret')).body).toEqual({
      RspCode: '97',
      Message: 'Invalid signature',
    });
    expect((await deliverVnpayIpn(vnpayNotice(opened.body.paymentUrl, { amount: 2_500_000 }))).body.RspCode).toBe('04');
    expect((await deliverVnpayIpn(vnpayNotice(opened.body.paymentUrl, { txnRef: 'P000000000000000000000000' }))).body.RspCode).toBe('01');
    const tampered = new URLSearchParams(vnpayQueryString(vnpayNotice(opened.body.paymentUrl)));
    tampered.set('vnp_Amount', '99900000');
    expect((await call('GET', `/payments/vnpay/ipn?${tampered}`)).body.RspCode).toBe('97');
    expect(await balance(an)).toBe(0);
    expect((await payment(an, opened.body.id)).status).toBe('PENDING');

    const answers = await Promise.all(Array.from({ length: 5 }, () => deliverVnpayIpn(vnpayNotice(opened.body.paymentUrl))));
    expect(answers.map((a) => a.body.RspCode).sort()).toEqual(['00', '02', '02', '02', '02']);
    expect(await balance(an)).toBe(250_000);
    expect(await payment(an, opened.body.id)).toMatchObject({
      status: 'SUCCEEDED',
      gateway: { transactionNo: '14422574', bankCode: 'NCB', responseCode: '00' },
      paymentUrl: null,
    });
    const entries = (await call('GET', '/wallet/transactions', { token: an.accessToken })).body.items;
    expect(entries).toHaveLength(1);

    const back = await call('GET', `/payments/vnpay/return?${vnpayQueryString(vnpayNotice(opened.body.paymentUrl))}`);
    expect(back.body).toEqual({ paymentId: opened.body.id, verified: true, status: 'SUCCEEDED', gatewaySuccess: true });
    expect((await call('GET', `/payments/vnpay/return?${tampered}`)).body).toMatchObject({ verified: false, status: null });

    const notice = await waitFor(async () => (await inboxOf(an.user.id, { entityId: opened.body.id }))[0], { what: 'the top-up notice' });
    expect(notice).toMatchObject({
      kind: 'WALLET',
      event: 'wallet.topup.succeeded',
      data: { sfx: 'wallet_topup_success', deepLink: { tab: 'AccountTab', screen: 'Wallet' } },
    });
  });

  it('a declined payment is FAILED (and notified); a late success after expiry still credits the money received', async () => {
    const an = await registerVerified();
    const declined = await postTopUp(an, 20_000, 'VNPAY');
    expect((await deliverVnpayIpn(vnpayNotice(declined.body.paymentUrl, { responseCode: '24' }))).body.RspCode).toBe('00');
    expect(await payment(an, declined.body.id)).toMatchObject({ status: 'FAILED', failureReason: expect.stringMatching(/code 24/) });
    expect((await deliverVnpayIpn(vnpayNotice(declined.body.paymentUrl))).body.RspCode).toBe('02');
    expect(await balance(an)).toBe(0);
    await waitFor(async () => (await inboxOf(an.user.id, { entityId: declined.body.id })).find((n) => n.event === 'wallet.topup.failed'), {
      what: 'the failure notice',
    });

    const late = await postTopUp(an, 30_000, 'VNPAY');
    await db()
      .collection(PAYMENTS)
      .doc(late.body.id)
      .update({ expiresAt: Timestamp.fromMillis(Date.now() - 1_000) });
    expect((await payment(an, late.body.id)).status).toBe('EXPIRED');
    expect((await call('POST', `/payments/${late.body.id}/cancel`, { token: an.accessToken })).body.code).toBe('PAYMENT_TRANSITION');
    expect((await deliverVnpayIpn(vnpayNotice(late.body.paymentUrl))).body.RspCode).toBe('00');
    expect(await balance(an)).toBe(30_000);
    const moves = (await call('GET', `/payments/${late.body.id}/events`, { token: an.accessToken })).body.items.map(
      (e: { from: string; to: string }) => `${e.from}>${e.to}`,
    );
    expect(moves).toEqual(['PENDING>EXPIRED', 'EXPIRED>SUCCEEDED']);
  });
});

describe('MoMo top-up', () => {
  it('the create request is signed and accepted; an IPN delivered 5 times credits once; forged ones are refused', async () => {
    const an = await registerVerified();
    const opened = await postTopUp(an, 120_000, 'MOMO');
    expect(opened).toMatchObject({ status: 201, body: { status: 'PENDING', provider: 'MOMO', paymentUrl: expect.stringContaining('/momo/pay?orderId=') } });
    const order = await momoCreateRequestOf(opened.body.id);
    expect(order).toMatchObject({
      partnerCode: 'MOMOSUPERAPP',
      amount: 120_000,
      requestType: 'captureWallet',
      orderId: opened.body.id,
      ipnUrl: expect.stringMatching(/\/payments\/momo\/ipn$/),
    });

    const forged = { ...momoNotice(order), signature: 'f'.repeat(64) };
    expect((await deliverMomoIpn(forged)).body.code).toBe('IPN_SIGNATURE_INVALID');
    expect((await deliverMomoIpn(momoNotice(order, { amount: 1_200_000 }))).body.code).toBe('IPN_AMOUNT_MISMATCH');
    expect((await deliverMomoIpn(momoNotice({ ...order, orderId: 'P999999999999999999999999' }))).body.code).toBe('IPN_UNKNOWN_ORDER');
    expect((await deliverMomoIpn(momoNotice(order, { partnerCode: 'MOMOOTHER' }))).body.code).toBe('IPN_SIGNATURE_INVALID');
    expect(await balance(an)).toBe(0);

    const answers = await Promise.all(Array.from({ length: 5 }, () => deliverMomoIpn(momoNotice(order))));
    expect(answers.map((a) => a.status)).toEqual([204, 204, 204, 204, 204]);
    expect(await balance(an)).toBe(120_000);
    expect((await payment(an, opened.body.id)).status).toBe('SUCCEEDED');
    const back = await call(
      'GET',
      `/payments/momo/return?${new URLSearchParams(Object.entries(momoNotice(order)).map(([k, v]): [string, string] => [k, String(v)]))}`,
    );
    expect(back.body).toEqual({ paymentId: opened.body.id, verified: true, status: 'SUCCEEDED', gatewaySuccess: true });
  });

  it('retrying a top-up with its key returns the same payment; another user cannot see it', async () => {
    const [an, binh] = [await registerVerified(), await registerVerified()];
    const k = key();
    const first = await postTopUp(an, 60_000, 'MOMO', k);
    const again = await postTopUp(an, 60_000, 'MOMO', k);
    expect(again.body.id).toBe(first.body.id);
    expect((await call('GET', `/payments/${first.body.id}`, { token: binh.accessToken })).status).toBe(404);
    expect((await call('POST', `/payments/${first.body.id}/cancel`, { token: binh.accessToken })).status).toBe(404);
    expect((await call('POST', `/payments/${first.body.id}/cancel`, { token: an.accessToken })).body.status).toBe('CANCELLED');
    const mine = await call('GET', '/payments?purpose=TOPUP', { token: an.accessToken });
    expect(mine.body.items.map((p: { id: string }) => p.id)).toEqual([first.body.id]);
  });
});

describe('refunds', () => {
  it('a top-up refund debits the wallet; a second full refund is 409; spending first makes it 409 insufficient funds', async () => {
    const [an, binh] = [await registerVerified(), await registerVerified()];
    const paid = (await postTopUp(an, 100_000, 'MOCK')).body;
    const part = await refund(an, { paymentId: paid.id, amount: 30_000, reason: 'changed my mind' });
    expect(part.body).toMatchObject({
      status: 'PARTIALLY_REFUNDED',
      refundedAmount: 30_000,
      refundable: 70_000,
      refunds: [expect.objectContaining({ amount: 30_000, gateway: { state: 'SETTLED', reference: expect.any(String) } })],
    });
    expect(await balance(an)).toBe(70_000);
    expect((await refund(an, { paymentId: paid.id, amount: 70_001, reason: 'too much' })).body.code).toBe('PAYMENT_REFUND_EXCEEDS');
    expect(
      (
        await call('POST', '/wallet/transfers', {
          token: an.accessToken,
          body: { toUserId: binh.user.id, amount: 60_000 },
          headers: { 'idempotency-key': key() },
        })
      ).status,
    ).toBe(201);
    const short = await refund(an, { paymentId: paid.id, reason: 'the rest please' });
    expect(short.body).toMatchObject({ code: 'WALLET_INSUFFICIENT_FUNDS', details: { available: 10_000, needed: 70_000 } });
    expect((await refund(binh, { paymentId: paid.id, reason: 'not mine' })).status).toBe(404);
    expect((await refund(an, { paymentId: paid.id, amount: 10_000, reason: 'what is left of it' })).body.status).toBe('PARTIALLY_REFUNDED');
    expect(await balance(an)).toBe(0);
    // The payer listens to the payment: it parses with its published schema, each refund's time a Timestamp.
    const stored = await expectPublished('PaymentDocument', `${PAYMENTS}/${paid.id}`);
    expect(stored.refunds).toHaveLength(2);
    expect(stored.refunds[0].at.toMillis()).toBe(Date.parse(part.body.refunds[0].at));

    const second = (await postTopUp(an, 50_000, 'MOCK')).body;
    const k = key();
    const full = await refund(an, { paymentId: second.id, reason: 'full refund' }, k);
    expect(full.body).toMatchObject({ status: 'REFUNDED', refundedAmount: 50_000, refundable: 0 });
    expect((await refund(an, { paymentId: second.id, reason: 'full refund' }, k)).body.refunds).toHaveLength(1);
    expect((await refund(an, { paymentId: second.id, reason: 'again' })).body.code).toBe('PAYMENT_TRANSITION');
    expect(await balance(an)).toBe(0);
    await waitFor(async () => (await inboxOf(an.user.id, { entityId: second.id })).find((n) => n.event === 'payment.refunded'), { what: 'the refund notice' });
    // Without a key the refund runs too (one refund per payment still guards it): nothing is left to refund here.
    expect((await call('POST', '/payments/refund', { token: an.accessToken, body: { paymentId: second.id, reason: 'no key' } })).body.code).toBe(
      'PAYMENT_TRANSITION',
    );
  });

  it('a VNPay top-up refund goes to the gateway (signed); a refused one is FAILED and an admin retries it', async () => {
    const [an, admin] = [await registerVerified(), await adminTokens()];
    const opened = await postTopUp(an, 80_000, 'VNPAY');
    await deliverVnpayIpn(vnpayNotice(opened.body.paymentUrl));
    const ok = await refund(an, { paymentId: opened.body.id, amount: 20_000, reason: 'partial back' });
    expect(ok.body.refunds[0].gateway).toEqual({ state: 'SETTLED', reference: expect.any(String) });
    const sent = (await gatewayRequests('VNPAY', 'refund')).find((r) => r.vnp_TxnRef === opened.body.id)!;
    expect(sent).toMatchObject({ vnp_TransactionType: '03', vnp_Amount: '2000000', vnp_TransactionNo: '14422574', vnp_TmnCode: 'SUPERAPP' });
    const refused = await refund(an, { paymentId: opened.body.id, reason: 'fake-fail' });
    expect(refused.body).toMatchObject({
      status: 'REFUNDED',
      refunds: [expect.anything(), expect.objectContaining({ amount: 60_000, gateway: { state: 'FAILED', reference: null } })],
    });
    expect(await balance(an)).toBe(0);
    const retry = await call('POST', `/payments/admin/${opened.body.id}/refunds/${refused.body.refunds[1].id}/retry`, { token: admin.accessToken });
    expect(retry.body.refunds[1].gateway.state).toBe('FAILED');
    expect((await call('POST', `/payments/admin/${opened.body.id}/refunds/${ok.body.refunds[0].id}/retry`, { token: admin.accessToken })).body.code).toBe(
      'PAYMENT_TRANSITION',
    );
    expect((await call('POST', `/payments/admin/${opened.body.id}/refunds/${ok.body.refunds[0].id}/retry`, { token: an.accessToken })).status).toBe(403);
  });
});

describe('lists and configuration', () => {
  it('methods show the configured gateways; admin lists filter; bad filters are 400', async () => {
    const [an, admin] = [await registerVerified(), await adminTokens()];
    expect((await call('GET', '/payments/methods', { token: an.accessToken })).body.providers).toEqual([
      { provider: 'VNPAY', available: true },
      { provider: 'MOMO', available: true },
      { provider: 'MOCK', available: true },
    ]);
    const paid = (await postTopUp(an, 10_000, 'MOCK')).body;
    const list = await call('GET', `/payments/admin?payerId=${an.user.id}`, { token: admin.accessToken });
    expect(list.body.items.map((p: { id: string }) => p.id)).toEqual([paid.id]);
    expect((await call('GET', '/payments/admin?status=SUCCEEDED&purpose=TOPUP', { token: admin.accessToken })).status).toBe(400);
    expect((await call('GET', '/payments/admin', { token: an.accessToken })).status).toBe(403);
    expect((await postTopUp(an, 9_999, 'MOCK')).status).toBe(400);
    expect((await postTopUp(an, 50_000_001, 'MOCK')).status).toBe(400);
    expect((await postTopUp(an, 10_000, 'PAYPAL' as 'MOCK')).status).toBe(400);
    expect((await call('GET', `/payments/mock/return?paymentId=${paid.id}`)).body).toEqual({
      paymentId: paid.id,
      verified: true,
      status: 'SUCCEEDED',
      gatewaySuccess: true,
    });
  });
});
