import { randomUUID } from 'node:crypto';
import { registerVerified } from '../../helpers/accounts';
import { area, driverAccount } from '../../helpers/drivers';
import { requireEmulators } from '../../helpers/emulators';
import { handoverPhoto } from '../../helpers/orders';
import { earnings, ledgerCheck, topUp, walletOf } from '../../helpers/wallet';
import { deliveryHarness, placeParcel, type Harness } from './harness';

// A parcel from quote to delivery, paid in cash with cash on delivery, and paid from the wallet with a photo proof:
// what each party sees, the driver's job-pool state at each step, and the money in the ledger afterwards.
beforeAll(requireEmulators);
jest.setTimeout(60_000);

let h: Harness;
beforeAll(async () => {
  h = await deliveryHarness();
});
afterAll(() => h.close());

const commissionOf = (fee: number) => Math.round(fee * 0.2);

describe('a cash parcel with cash on delivery', () => {
  it('is assigned to the nearest free driver, picked up and delivered with the codes; the cash collected goes to the sender, owed by the driver', async () => {
    const here = area();
    const [sender, near, far, stranger] = await Promise.all([registerVerified({ name: 'Lan' }), driverAccount(), driverAccount(), registerVerified()]);
    await h.pool.online(far.user.id, here.near(2_000));
    await h.pool.online(near.user.id, here.near(300));
    const placed = await placeParcel(h, sender, here, { codAmount: 200_000 });
    expect(placed.status).toBe(201);
    const parcel = placed.body;
    expect(parcel).toMatchObject({ status: 'DRIVER_ASSIGNED', driverId: near.user.id, codAmount: 200_000, paymentMethod: 'CASH', currency: 'VND' });
    expect(parcel.pickup.contact).toEqual({ name: 'Lan', phone: '+84987654321' });
    expect(parcel.dropoff.contact).toEqual({ name: 'Trần Thị Mai', phone: '+84912345678' });
    expect(parcel.codes.pickup).toMatch(/^\d{4}$/);
    expect(parcel.codes.dropoff).toMatch(/^\d{4}$/);
    expect(await h.pool.state(near.user.id)).toMatchObject({ jobId: parcel.id, kind: 'DELIVERY', customerId: sender.user.id, sharedWith: null });
    expect((await h.pool.state(far.user.id)).jobId).toBeNull();

    // The driver sees the parcel and the contacts, never the codes; a stranger does not see it at all.
    const driverView = await h.send('GET', `/delivery/orders/${parcel.id}`, { token: near.accessToken });
    expect(driverView.status).toBe(200);
    expect(driverView.body).toMatchObject({ codes: null, actions: ['giveUp', 'pickup'], dropoff: { contact: { phone: '+84912345678' } } });
    expect((await h.send('GET', `/delivery/orders/${parcel.id}`, { token: stranger.accessToken })).status).toBe(404);
    expect((await h.send('GET', `/delivery/orders/${parcel.id}`, { token: far.accessToken })).status).toBe(404);
    const current = await h.send('GET', '/delivery/courier/current', { token: near.accessToken });
    expect(current.body).toMatchObject({ job: { kind: 'DELIVERY', id: parcel.id }, delivery: { id: parcel.id, codes: null } });
    expect((await h.send('GET', '/delivery/courier/current', { token: far.accessToken })).body).toEqual({ job: null, delivery: null });

    const wrongCode = parcel.codes.pickup === '0000' ? '1111' : '0000';
    const wrong = await h.send('POST', `/delivery/orders/${parcel.id}/pickup`, { token: near.accessToken, body: { code: wrongCode } });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({ code: 'DELIVERY_CODE_WRONG', details: { attemptsLeft: 4 } });
    const picked = await h.send('POST', `/delivery/orders/${parcel.id}/pickup`, { token: near.accessToken, body: { code: parcel.codes.pickup } });
    expect(picked.status).toBe(200);
    expect(picked.body).toMatchObject({ status: 'PICKED_UP', pickupProof: { method: 'CODE', photo: null } });
    // From pickup the sender sees the driver's live position.
    expect((await h.pool.state(near.user.id)).sharedWith).toBe(sender.user.id);
    const senderView = await h.send('GET', `/delivery/orders/${parcel.id}`, { token: sender.accessToken });
    expect(senderView.body.codes).toEqual({ pickup: null, dropoff: parcel.codes.dropoff });

    const before = { senderWallet: (await walletOf(sender)).balance, driverEarnings: await earnings(near) };
    const delivered = await h.send('POST', `/delivery/orders/${parcel.id}/deliver`, { token: near.accessToken, body: { code: parcel.codes.dropoff } });
    expect(delivered.status).toBe(200);
    expect(delivered.body).toMatchObject({ status: 'DELIVERED', deliveryProof: { method: 'CODE' }, actions: [] });
    expect(await h.pool.state(near.user.id)).toMatchObject({ jobId: null, sharedWith: null });

    // Cash: the driver took the fee and the 200,000 VND; the sender's wallet gets the cash collected, the driver owes
    // it and the commission on the fee.
    expect((await walletOf(sender)).balance).toBe(before.senderWallet + 200_000);
    expect(await earnings(near)).toBe(before.driverEarnings - 200_000 - commissionOf(parcel.feeVnd));
    expect((await ledgerCheck(sender.user.id)).ok).toBe(true);
    expect((await ledgerCheck(near.user.id)).ok).toBe(true);
    // Settling again (the trigger does) moves nothing more.
    await h.service.settle(await h.stored(parcel.id));
    expect((await walletOf(sender)).balance).toBe(before.senderWallet + 200_000);
    expect(await earnings(near)).toBe(before.driverEarnings - 200_000 - commissionOf(parcel.feeVnd));
  });
});

describe('a wallet parcel', () => {
  it('holds the fee at placing and pays the driver at delivery, proved by a photo of the driver’s own', async () => {
    const here = area();
    const [sender, driver] = await Promise.all([registerVerified(), driverAccount()]);
    await topUp(sender, 200_000);
    await h.pool.online(driver.user.id, here.near(100));
    const placed = await placeParcel(h, sender, here, { paymentMethod: 'WALLET', km: 6 });
    expect(placed.status).toBe(201);
    const fee = placed.body.feeVnd as number;
    expect(await walletOf(sender)).toMatchObject({ balance: 200_000 - fee, held: fee });
    const othersPhoto = await handoverPhoto(sender);
    const photo = await handoverPhoto(driver);
    const refused = await h.send('POST', `/delivery/orders/${placed.body.id}/pickup`, { token: driver.accessToken, body: { photoId: othersPhoto } });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'DELIVERY_PHOTO_INVALID', details: [{ field: 'body.photoId' }] });
    // A position of this job (written since the assignment) at the sender's.
    await h.pool.moveTo(driver.user.id, placed.body.pickup);
    const picked = await h.send('POST', `/delivery/orders/${placed.body.id}/pickup`, { token: driver.accessToken, body: { photoId: photo } });
    expect(picked.body).toMatchObject({ status: 'PICKED_UP', pickupProof: { method: 'PHOTO', photo: { id: photo } } });
    // A photo proves the drop-off where the driver is: at the recipient's.
    await h.pool.moveTo(driver.user.id, placed.body.dropoff);
    // The pickup's photo proves nothing at the drop-off: only one taken since the pickup.
    const again = await h.send('POST', `/delivery/orders/${placed.body.id}/deliver`, { token: driver.accessToken, body: { photoId: photo } });
    expect([again.status, again.body.code]).toEqual([422, 'DELIVERY_PHOTO_INVALID']);
    const dropoffPhoto = await handoverPhoto(driver);
    const delivered = await h.send('POST', `/delivery/orders/${placed.body.id}/deliver`, { token: driver.accessToken, body: { photoId: dropoffPhoto } });
    expect(delivered.body.status).toBe('DELIVERED');
    expect(await walletOf(sender)).toMatchObject({ balance: 200_000 - fee, held: 0 });
    expect(await earnings(driver)).toBe(fee - commissionOf(fee));
    expect((await ledgerCheck(sender.user.id)).ok).toBe(true);
    expect((await ledgerCheck(driver.user.id)).ok).toBe(true);
    const stored = await h.stored(placed.body.id);
    expect(stored.payment.feePaymentId).toBe(stored.payment.holdPaymentId);
  });

  it('is refused with nothing held or placed when the wallet does not cover the fee', async () => {
    const here = area();
    const sender = await registerVerified();
    const key = randomUUID();
    const placed = await placeParcel(h, sender, here, { paymentMethod: 'WALLET', key });
    expect(placed.status).toBe(409);
    expect(placed.body.code).toBe('WALLET_INSUFFICIENT_FUNDS');
    expect(await walletOf(sender)).toMatchObject({ balance: 0, held: 0 });
    expect((await h.send('GET', '/delivery/orders', { token: sender.accessToken })).body.items).toEqual([]);
  });
});
