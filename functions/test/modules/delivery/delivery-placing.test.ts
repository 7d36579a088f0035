import { randomUUID } from 'node:crypto';
import { signQuote, quoteKeyOf } from '../../../src/modules/delivery/delivery.pricing';
import { paymentCommands } from '../../../src/modules/payments';
import { stableId } from '../../../src/platform/kits/ids/stable-id';
import { vnd } from '../../../src/platform/kits/money/money';
import { registerVerified } from '../../helpers/accounts';
import { area, driverAccount } from '../../helpers/drivers';
import { requireEmulators } from '../../helpers/emulators';
import { topUp, walletOf } from '../../helpers/wallet';
import { config, deliveryHarness, placeParcel, RECIPIENT, route, SENDER, type Harness } from './harness';

// Quotes and placing: the price is the server's (signed), bad input is a 400 naming the field, and a retried or
// doubled placing is one parcel with one hold.
beforeAll(requireEmulators);
jest.setTimeout(60_000);

let h: Harness;
beforeAll(async () => {
  h = await deliveryHarness();
});
afterAll(() => h.close());

const fieldsOf = (body: { details?: Array<{ field: string }> }) => (body.details ?? []).map((d) => d.field);

describe('the tariff and quotes', () => {
  it('publishes sizes with their weights and dimensions', async () => {
    const sender = await registerVerified();
    const res = await h.send('GET', '/delivery/tariff', { token: sender.accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ currency: 'VND', baseFeeVnd: 15_000, perKmVnd: 5_000, codFeeVnd: 5_000 });
    expect(res.body.sizes.map((s: { size: string; maxWeightKg: number }) => [s.size, s.maxWeightKg])).toEqual([
      ['SMALL', 5],
      ['MEDIUM', 15],
      ['LARGE', 30],
    ]);
  });

  it('prices by road distance and size in whole thousands of VND, with the cash-on-delivery fee', async () => {
    const here = area();
    const sender = await registerVerified();
    const quote = async (body: Record<string, unknown>) => (await h.send('POST', '/delivery/quote', { token: sender.accessToken, body })).body;
    const small = await quote(route(here, 3, 'SMALL'));
    // 3 km straight is about 4,050 m by road: 15,000 for the first 2 km, 5,000 a km after, rounded up.
    expect(small.distanceM).toBeGreaterThan(4_000);
    expect(small.distanceM).toBeLessThan(4_100);
    const raw = 15_000 + (small.distanceM - 2_000) * 5;
    expect(small.feeVnd).toBe(Math.ceil(raw / 1_000) * 1_000);
    expect(small).toMatchObject({ currency: 'VND', size: 'SMALL', codAmount: 0, breakdown: { baseVnd: 15_000, sizeMultiplier: 1, codFeeVnd: 0 } });
    const large = await quote(route(here, 3, 'LARGE'));
    expect(large.feeVnd).toBe(Math.ceil((raw * 1.8) / 1_000) * 1_000);
    const withCod = await quote(route(here, 3, 'SMALL', 150_000));
    expect(withCod).toMatchObject({ feeVnd: small.feeVnd + 5_000, codAmount: 150_000, breakdown: { codFeeVnd: 5_000 } });
    expect(Date.parse(small.expiresAt) - Date.now()).toBeGreaterThan(590_000);
  });

  it('refuses bad input naming the field, and distances parcels do not go', async () => {
    const here = area();
    const sender = await registerVerified();
    const quote = (body: unknown) => h.send('POST', '/delivery/quote', { token: sender.accessToken, body });
    const good = route(here);
    const cases: Array<[unknown, string]> = [
      [{ ...good, pickup: { ...good.pickup, lat: 91 } }, 'body.pickup.lat'],
      [{ ...good, dropoff: { ...good.dropoff, address: '' } }, 'body.dropoff.address'],
      [{ ...good, size: 'HUGE' }, 'body.size'],
      [{ ...good, codAmount: 5_000_001 }, 'body.codAmount'],
      [{ ...good, codAmount: 10.5 }, 'body.codAmount'],
      [{ ...good, dropoff: good.pickup }, 'body.dropoff'],
      [{ pickup: good.pickup, size: 'SMALL' }, 'body.dropoff'],
    ];
    for (const [body, field] of cases) {
      const res = await quote(body);
      expect([res.status, fieldsOf(res.body)]).toEqual([400, expect.arrayContaining([field])]);
    }
    const far = await quote(route(here, 60));
    expect(far.status).toBe(422);
    expect(far.body).toMatchObject({ code: 'DELIVERY_DISTANCE', details: { maxM: 50_000 } });
    const driver = await driverAccount();
    expect((await h.send('POST', '/delivery/quote', { token: driver.accessToken, body: good })).status).toBe(403); // the consumer app's
    expect((await h.send('POST', '/delivery/quote', { body: good })).status).toBe(401);
  });
});

describe('placing a parcel', () => {
  const placeWith = async (sender: { accessToken: string }, body: Record<string, unknown>, key: string | undefined = randomUUID()) =>
    h.send('POST', '/delivery/orders', { token: sender.accessToken, key, body });

  it('takes the price from the quote only: another sender’s, altered, expired or for other cash on delivery is refused', async () => {
    const here = area();
    const [sender, other] = await Promise.all([registerVerified(), registerVerified()]);
    const quote = (await h.send('POST', '/delivery/quote', { token: sender.accessToken, body: route(here, 3, 'SMALL', 50_000) })).body;
    const base = { sender: SENDER, recipient: RECIPIENT, parcel: { description: 'Giấy tờ' }, paymentMethod: 'CASH' };
    const othersTry = await placeWith(other, { ...base, quoteId: quote.quoteId });
    expect(othersTry.body).toMatchObject({ code: 'DELIVERY_QUOTE_INVALID', details: [{ field: 'body.quoteId' }] });
    const [payload, signature] = quote.quoteId.split('.');
    const cheaper = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), feeVnd: 1_000 })).toString('base64url');
    expect((await placeWith(sender, { ...base, quoteId: `${cheaper}.${signature}` })).body.code).toBe('DELIVERY_QUOTE_INVALID');
    const otherCod = await placeWith(sender, { ...base, quoteId: quote.quoteId, codAmount: 10_000 });
    expect(otherCod.body).toMatchObject({ code: 'DELIVERY_QUOTE_INVALID', details: [{ field: 'body.codAmount' }] });
    const terms = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const expired = signQuote({ ...terms, expiresAt: Date.now() - 1 }, quoteKeyOf(config.JWT_SECRET));
    const late = await placeWith(sender, { ...base, quoteId: expired });
    expect([late.status, late.body.code]).toEqual([409, 'DELIVERY_QUOTE_EXPIRED']);
    const placed = await placeWith(sender, { ...base, quoteId: quote.quoteId, codAmount: 50_000 });
    expect(placed.status).toBe(201);
    expect(placed.body).toMatchObject({ feeVnd: quote.feeVnd, codAmount: 50_000, status: 'CREATED', parcel: { size: 'SMALL', description: 'Giấy tờ' } });
  });

  it('refuses bad input naming the field, a missing Idempotency-Key, and a sender without a phone', async () => {
    const here = area();
    const sender = await registerVerified();
    const quoteId = (await h.send('POST', '/delivery/quote', { token: sender.accessToken, body: route(here) })).body.quoteId;
    const base = { quoteId, recipient: RECIPIENT, parcel: { description: 'Sách' }, paymentMethod: 'CASH' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...base, recipient: { name: 'Mai', phone: '12345' } }, 'body.recipient.phone'],
      [{ ...base, recipient: { phone: RECIPIENT.phone } }, 'body.recipient.name'],
      [{ ...base, parcel: { description: '' } }, 'body.parcel.description'],
      [{ ...base, paymentMethod: 'BITCOIN' }, 'body.paymentMethod'],
      [{ ...base, sender: { phone: 'not a phone' } }, 'body.sender.phone'],
      [{ ...base, codAmount: -1 }, 'body.codAmount'],
      [{ ...base, note: 'x'.repeat(301) }, 'body.note'],
      [{ ...base, quoteId: undefined }, 'body.quoteId'],
      // The account has no phone and none was given: the driver could not call the sender.
      [base, 'body.sender.phone'],
    ];
    for (const [body, field] of cases) {
      const res = await placeWith(sender, body);
      expect([res.status, fieldsOf(res.body)]).toEqual([400, expect.arrayContaining([field])]);
    }
    const keyless = await placeWith(sender, { ...base, sender: SENDER }, '');
    expect([keyless.status, keyless.body.code]).toEqual([400, 'IDEMPOTENCY_KEY_REQUIRED']);
    expect((await h.send('GET', '/delivery/orders', { token: sender.accessToken })).body.items).toEqual([]);
  });

  it('retried with one Idempotency-Key, at once or later, places one parcel with one hold', async () => {
    const here = area();
    const sender = await registerVerified();
    await topUp(sender, 100_000);
    const key = randomUUID();
    const quoteId = (await h.send('POST', '/delivery/quote', { token: sender.accessToken, body: route(here) })).body.quoteId;
    const body = { quoteId, sender: SENDER, recipient: RECIPIENT, parcel: { description: 'Quà' }, paymentMethod: 'WALLET' };
    const racing = await Promise.all([placeWith(sender, body, key), placeWith(sender, body, key), placeWith(sender, body, key)]);
    const placed = racing.filter((r) => r.status === 201 || r.status === 200);
    expect(placed.length).toBeGreaterThan(0);
    for (const r of racing) expect([200, 201, 409]).toContain(r.status);
    const ids = new Set(placed.map((r) => r.body.id));
    expect(ids.size).toBe(1);
    const again = await placeWith(sender, body, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe([...ids][0]);
    const mine = (await h.send('GET', '/delivery/orders', { token: sender.accessToken })).body.items;
    expect(mine.map((d: { id: string }) => d.id)).toEqual([...ids]);
    expect(await walletOf(sender)).toMatchObject({ balance: 100_000 - again.body.feeVnd, held: again.body.feeVnd });
    // The service itself answers a repeat with the stored parcel (what a retry after the key expired gets).
    const direct = await h.service.place(sender.user.id, body as never, key);
    expect([direct.created, direct.delivery.id]).toEqual([false, again.body.id]);
  });

  it('retried after an attempt that held the fee and failed: the old hold never stays, the new one covers the fee exactly', async () => {
    const here = area();
    const sender = await registerVerified();
    await topUp(sender, 100_000);
    const payments = paymentCommands(config);
    const holdAs = (parcelId: string, amount: number) =>
      payments.hold({
        payerId: sender.user.id,
        amount: vnd(amount),
        purpose: 'DELIVERY',
        ref: { type: 'DELIVERY', id: parcelId },
        description: 'Parcel delivery (held until delivered)',
        idempotencyKey: parcelId,
      });
    const quoteId = (await h.send('POST', '/delivery/quote', { token: sender.accessToken, body: route(here) })).body.quoteId;
    const body = { quoteId, sender: SENDER, recipient: RECIPIENT, parcel: { description: 'Quà' }, paymentMethod: 'WALLET' };
    // An attempt that held the fee of another quote (a retry with the same key after the key's replay expired).
    const staleKey = randomUUID();
    await holdAs(stableId({ scope: 'delivery.place', caller: sender.user.id, key: staleKey, prefix: 'D' }), 3_000);
    const retried = await placeWith(sender, body, staleKey);
    expect(retried.status).toBe(201);
    expect(await walletOf(sender)).toMatchObject({ held: retried.body.feeVnd, balance: 100_000 - retried.body.feeVnd });
    // An attempt whose hold was given back when it failed.
    const releasedKey = randomUUID();
    const released = await holdAs(stableId({ scope: 'delivery.place', caller: sender.user.id, key: releasedKey, prefix: 'D' }), retried.body.feeVnd);
    await payments.release(released.id, 'The delivery could not be placed');
    const again = await placeWith(sender, body, releasedKey);
    expect(again.status).toBe(201);
    expect((await walletOf(sender)).held).toBe(2 * retried.body.feeVnd);
    expect((await h.stored(again.body.id)).payment.holdPaymentId).not.toBe(released.id);
  });

  it('lists my parcels newest first, page by page, as sender and as driver', async () => {
    const here = area();
    const [sender, driver] = await Promise.all([registerVerified(), driverAccount()]);
    await h.pool.online(driver.user.id, here.near(50));
    const first = (await placeParcel(h, sender, here)).body;
    const second = (await placeParcel(h, sender, here)).body;
    expect([first.driverId, second.driverId]).toEqual([driver.user.id, null]); // the driver is on the first one
    const page1 = await h.send('GET', '/delivery/orders?limit=1', { token: sender.accessToken });
    expect(page1.body.items.map((d: { id: string }) => d.id)).toEqual([second.id]);
    const page2 = await h.send('GET', `/delivery/orders?limit=1&cursor=${encodeURIComponent(page1.body.nextCursor)}`, { token: sender.accessToken });
    expect(page2.body.items.map((d: { id: string }) => d.id)).toEqual([first.id]);
    const carried = await h.send('GET', '/delivery/orders?as=DRIVER', { token: driver.accessToken });
    expect(carried.body.items.map((d: { id: string; codes: unknown }) => [d.id, d.codes])).toEqual([[first.id, null]]);
    expect((await h.send('GET', '/delivery/orders?as=COURIER', { token: driver.accessToken })).status).toBe(400);
    const othersCursor = await h.send('GET', `/delivery/orders?limit=1&cursor=${encodeURIComponent(page1.body.nextCursor)}`, { token: driver.accessToken });
    expect([othersCursor.status, othersCursor.body.code]).toEqual([400, 'INVALID_CURSOR']);
  });
});
