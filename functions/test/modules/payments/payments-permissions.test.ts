import { randomUUID } from 'node:crypto';
import { db } from '../../../src/platform/core/firebase/firebase';
import { registerVerified, type Tokens } from '../../helpers/accounts';
import { withStaff } from '../../helpers/admins';
import { call } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { deliverMomoIpn, deliverVnpayIpn, momoCreateRequestOf, momoNotice, vnpayNotice } from '../../helpers/gateways';
import { PAYMENTS } from '../../../src/modules/payments/payments.collections';
import { balance, earnings, topUp } from '../../helpers/wallet';
import { walletRide } from '../../helpers/payments';
import { driverAccount } from '../../helpers/drivers';

beforeAll(requireEmulators);

// Issue 29 items 1, 16 and 18: who reads and refunds others' payments, refunds while one is with the gateway,
// refunds without an Idempotency-Key, MoMo's "authorized" notices.
type Person = Tokens & { email: string };
const key = () => randomUUID();
const refund = (who: Person, body: Record<string, unknown>, idempotencyKey?: string) =>
  call('POST', '/payments/refund', { token: who.accessToken, body, ...(idempotencyKey ? { headers: { 'idempotency-key': idempotencyKey } } : {}) });
const adminRefund = (who: Tokens, body: Record<string, unknown>, idempotencyKey: string | undefined = key()) =>
  call('POST', '/payments/admin/refund', { token: who.accessToken, body, ...(idempotencyKey ? { headers: { 'idempotency-key': idempotencyKey } } : {}) });

const { admin: fullAdmin, limitedAdmin } = withStaff();
let admin: Tokens;
beforeAll(() => {
  admin = fullAdmin();
});

describe('refunds and reads of others’ payments need payments.manage', () => {
  it('an admin narrowed to [] refunds and reads only as a payer: not its own ride at the driver’s expense, not others’ payments', async () => {
    const [narrowed, drv, stranger] = [await limitedAdmin([]), await driverAccount(), await registerVerified()];
    const ride = await walletRide(narrowed, drv);
    expect(await earnings(drv)).toBe(40_000);
    const theirs = await topUp(stranger, 20_000);

    expect((await refund(narrowed, { paymentId: ride.id, reason: 'my own ride back' }, key())).body.code).toBe('PAYMENT_NOT_REFUNDABLE_BY_PAYER');
    expect((await adminRefund(narrowed, { paymentId: ride.id, reason: 'my own ride back' })).body.code).toBe('PERMISSION_REQUIRED');
    expect((await refund(narrowed, { paymentId: theirs.id, reason: 'not mine' }, key())).status).toBe(404);
    expect((await call('GET', `/payments/${theirs.id}`, { token: narrowed.accessToken })).status).toBe(404);
    expect((await call('GET', `/payments/${theirs.id}/events`, { token: narrowed.accessToken })).status).toBe(404);
    expect((await call('GET', `/payments/${ride.id}`, { token: narrowed.accessToken })).body.status).toBe('SUCCEEDED');
    expect(await earnings(drv)).toBe(40_000);
    expect((await call('GET', `/payments/${ride.id}`, { token: admin.accessToken })).body.refundedAmount).toBe(0);
  });

  it('staff refund a purchase on the admin route (payee and fee back in proportion); payers see STAFF, not the admin id; never their own payment', async () => {
    const [manager, payer, drv] = [await limitedAdmin(['payments.manage']), await registerVerified(), await driverAccount()];
    const ride = await walletRide(payer, drv);
    // The payer route is the payer's, whatever the caller's roles: another's payment is not found there.
    expect((await refund(manager, { paymentId: ride.id, reason: 'support case' }, key())).status).toBe(404);
    expect((await call('GET', `/payments/${ride.id}`, { token: manager.accessToken })).body.payerId).toBe(payer.user.id);

    const done = await adminRefund(manager, { paymentId: ride.id, reason: 'driver never came' });
    expect(done.body).toMatchObject({ status: 'REFUNDED', refunds: [expect.objectContaining({ amount: 50_000, by: 'STAFF', reason: 'driver never came' })] });
    expect([await balance(payer), await earnings(drv)]).toEqual([50_000, 0]);

    const seen = await call('GET', `/payments/${ride.id}`, { token: payer.accessToken });
    expect(seen.body.refunds[0].by).toBe('STAFF');
    expect(JSON.stringify(seen.body)).not.toContain(manager.user.id);
    const payerEvents = (await call('GET', `/payments/${ride.id}/events`, { token: payer.accessToken })).body.items;
    expect(payerEvents.map((e: { by: string }) => e.by)).toContain('STAFF');
    expect(JSON.stringify(payerEvents)).not.toContain(manager.user.id);
    expect(JSON.stringify((await db().collection(PAYMENTS).doc(ride.id).get()).data())).not.toContain(manager.user.id);
    const staffEvents = (await call('GET', `/payments/${ride.id}/events`, { token: admin.accessToken })).body.items;
    expect(staffEvents.find((e: { action: string }) => e.action === 'refund').by).toBe(manager.user.id);

    const own = await walletRide(manager, drv);
    expect((await adminRefund(manager, { paymentId: own.id, reason: 'my own ride' })).body.code).toBe('PAYMENT_SELF_REFUND');
    const received = await walletRide(payer, manager);
    expect((await adminRefund(manager, { paymentId: received.id, reason: 'a ride I drove' })).body.code).toBe('PAYMENT_SELF_REFUND');
    expect((await adminRefund(admin, { paymentId: own.id, reason: 'a second pair of eyes' })).body.status).toBe('REFUNDED');
  });
});

describe('refunds without an Idempotency-Key', () => {
  it('work on POST /payments/refund; one keyless refund per payment, even sent 5 times at once; with a key, once per key', async () => {
    const an = await registerVerified();
    const paid = await topUp(an, 50_000);
    const keyless = await Promise.all(Array.from({ length: 5 }, () => refund(an, { paymentId: paid.id, amount: 10_000, reason: 'no key here' })));
    expect(keyless.some((r) => r.status === 200)).toBe(true);
    expect(keyless.filter((r) => r.status !== 200).map((r) => r.body.code)).toEqual(keyless.filter((r) => r.status !== 200).map(() => 'CONTENDED'));
    expect((await refund(an, { paymentId: paid.id, amount: 10_000, reason: 'no key here' })).body.refunds).toHaveLength(1);
    // Another ask without a key is not silently swallowed (review finding 5): it needs its own key.
    expect((await refund(an, { paymentId: paid.id, amount: 10_000, reason: 'no key again' })).body.code).toBe('PAYMENT_REFUND_KEY_REQUIRED');
    expect(await balance(an)).toBe(40_000);

    const k = key();
    const keyed = await Promise.all(Array.from({ length: 3 }, () => refund(an, { paymentId: paid.id, amount: 5_000, reason: 'with a key' }, k)));
    expect(keyed.some((r) => r.status === 200)).toBe(true);
    expect((await refund(an, { paymentId: paid.id, amount: 5_000, reason: 'with a key' }, k)).body.refunds).toHaveLength(2);
    expect(await balance(an)).toBe(35_000);
    // Keys stay required where nothing else prevents a double.
    expect((await call('POST', '/wallet/topups', { token: an.accessToken, body: { amount: 10_000, provider: 'MOCK' } })).body.code).toBe(
      'IDEMPOTENCY_KEY_REQUIRED',
    );
    expect((await call('POST', '/wallet/transfers', { token: an.accessToken, body: { toUserId: admin.user.id, amount: 1_000 } })).body.code).toBe(
      'IDEMPOTENCY_KEY_REQUIRED',
    );
  });
});

describe('a refund while another is with the gateway', () => {
  it('is refused (409 PAYMENT_REFUND_IN_FLIGHT) until the first settles, for payers, staff and retries alike', async () => {
    const an = await registerVerified();
    const opened = await topUp(an, 90_000, 'VNPAY');
    await deliverVnpayIpn(vnpayNotice(opened.paymentUrl));
    const first = await refund(an, { paymentId: opened.id, amount: 20_000, reason: 'fake-fail' }, key());
    expect(first.body.refunds[0].gateway.state).toBe('FAILED');
    const refundId = first.body.refunds[0].id as string;

    // A refused refund is not in flight: it may be retried (refused again here: its reason makes the fake refuse).
    expect((await call('POST', `/payments/admin/${opened.id}/refunds/${refundId}/retry`, { token: admin.accessToken })).body.refunds[0].gateway.state).toBe(
      'FAILED',
    );

    // The gateway has not answered yet (REQUESTED a moment ago): nothing else goes out for this payment.
    const ref = db().collection(PAYMENTS).doc(opened.id);
    const stored = (await ref.get()).data()!;
    await ref.update({
      refunds: stored.refunds.map((r: { id: string }) =>
        r.id === refundId ? { ...r, gateway: { state: 'REQUESTED', reference: null }, requestedAt: Date.now() } : r,
      ),
    });
    expect((await call('POST', `/payments/admin/${opened.id}/refunds/${refundId}/retry`, { token: admin.accessToken })).body).toMatchObject({
      code: 'PAYMENT_REFUND_IN_FLIGHT',
      details: { refundId },
    });
    expect((await refund(an, { paymentId: opened.id, amount: 10_000, reason: 'more back' }, key())).body.code).toBe('PAYMENT_REFUND_IN_FLIGHT');
    expect((await adminRefund(admin, { paymentId: opened.id, amount: 10_000, reason: 'more back' })).body.code).toBe('PAYMENT_REFUND_IN_FLIGHT');

    // A request older than the in-flight time never got its answer: it may be sent again, and then others follow.
    await ref.update({
      refunds: stored.refunds.map((r: { id: string }) =>
        r.id === refundId ? { ...r, reason: 'stuck', gateway: { state: 'REQUESTED', reference: null }, requestedAt: Date.now() - 6 * 60_000 } : r,
      ),
    });
    expect((await call('POST', `/payments/admin/${opened.id}/refunds/${refundId}/retry`, { token: admin.accessToken })).body.refunds[0].gateway.state).toBe(
      'SETTLED',
    );
    expect((await refund(an, { paymentId: opened.id, amount: 10_000, reason: 'more back' }, key())).body.refunds).toHaveLength(2);
  });
});

describe('MoMo resultCode 9000', () => {
  it('is authorized, not paid: the payment stays PENDING and nothing is credited until the capture (resultCode 0)', async () => {
    const an = await registerVerified();
    const opened = await topUp(an, 70_000, 'MOMO');
    const order = await momoCreateRequestOf(opened.id);
    expect((await deliverMomoIpn(momoNotice(order, { resultCode: 9000 }))).status).toBe(204);
    expect((await call('GET', `/payments/${opened.id}`, { token: an.accessToken })).body.status).toBe('PENDING');
    expect(await balance(an)).toBe(0);
    expect((await deliverMomoIpn(momoNotice(order))).status).toBe(204);
    expect((await call('GET', `/payments/${opened.id}`, { token: an.accessToken })).body.status).toBe('SUCCEEDED');
    expect(await balance(an)).toBe(70_000);
  });
});
