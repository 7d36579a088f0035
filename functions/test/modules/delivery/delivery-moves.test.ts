import { randomUUID } from 'node:crypto';
import { adminTokens, registerVerified, type Tokens } from '../../helpers/accounts';
import { narrowedAdmin } from '../../helpers/admins';
import { area, driverAccount } from '../../helpers/drivers';
import { requireEmulators } from '../../helpers/emulators';
import { earnings, ledgerCheck, topUp, walletOf } from '../../helpers/wallet';
import { deliveryHarness, placeParcel, type Harness } from './harness';

// Who may make which move, and when: the status table answered with 409 and a code, strangers with 404, races
// resolved by the parcel's transaction, the code's attempts limit, cancellations with their money, the
// administrators' operations and the sender's rating.
beforeAll(requireEmulators);
jest.setTimeout(90_000);

let h: Harness;
beforeAll(async () => {
  h = await deliveryHarness();
});
afterAll(() => h.close());

type Parcel = { id: string; codes: { pickup: string; dropoff: string }; feeVnd: number; driverId: string | null };
const act = (who: Tokens, id: string, action: string, body: unknown = {}) =>
  h.send('POST', `/delivery/orders/${id}/${action}`, { token: who.accessToken, body });
const wrongOf = (code: string) => (code === '0000' ? '1111' : '0000');

/** A sender, a driver online beside them, and a parcel the driver was assigned. */
async function assigned(paymentMethod: 'CASH' | 'WALLET' = 'CASH') {
  const here = area();
  const [sender, driver] = await Promise.all([registerVerified(), driverAccount()]);
  if (paymentMethod === 'WALLET') await topUp(sender, 100_000);
  await h.pool.online(driver.user.id, here.near(100));
  const placed = await placeParcel(h, sender, here, { paymentMethod });
  expect(placed.body.status).toBe('DRIVER_ASSIGNED');
  return { here, sender, driver, parcel: placed.body as Parcel };
}

describe('the status table', () => {
  it('answers every move a status does not allow with 409 DELIVERY_TRANSITION, and a move of the other party with DELIVERY_NOT_ALLOWED', async () => {
    const { sender, driver, parcel } = await assigned();
    const expect409 = async (who: Tokens, action: string, body: unknown, code = 'DELIVERY_TRANSITION') => {
      const res = await act(who, parcel.id, action, body);
      expect([action, res.status, res.body.code]).toEqual([action, 409, code]);
    };
    await expect409(driver, 'deliver', { code: parcel.codes.dropoff }); // DRIVER_ASSIGNED
    await expect409(driver, 'cancel', {}, 'DELIVERY_NOT_ALLOWED');
    expect((await act(sender, parcel.id, 'pickup', { code: parcel.codes.pickup })).status).toBe(403); // the driver's route
    expect((await act(driver, parcel.id, 'pickup', { code: parcel.codes.pickup })).status).toBe(200);
    await expect409(driver, 'pickup', { code: parcel.codes.pickup }); // PICKED_UP
    await expect409(sender, 'cancel', {});
    expect((await act(driver, parcel.id, 'deliver', { code: parcel.codes.dropoff })).status).toBe(200);
    for (const [action, body] of [
      ['pickup', { code: parcel.codes.pickup }],
      ['deliver', { code: parcel.codes.dropoff }],
    ] as const)
      await expect409(driver, action, body); // DELIVERED
    await expect409(sender, 'cancel', {});
    const admin = await adminTokens();
    const late = await h.send('POST', `/delivery/admin/orders/${parcel.id}/cancel`, { token: admin.accessToken, body: { reason: 'Too late' } });
    expect([late.status, late.body.code]).toEqual([409, 'DELIVERY_TRANSITION']);
    expect(late.body.details).toMatchObject({ status: 'DELIVERED' });
  });

  it('leaves a cancelled parcel cancelled, and hides every parcel from strangers and other drivers', async () => {
    const { sender, driver, parcel } = await assigned();
    const [stranger, otherDriver] = await Promise.all([registerVerified(), driverAccount()]);
    for (const who of [stranger, otherDriver]) {
      expect((await act(who, parcel.id, 'cancel')).status).toBe(404);
      expect((await act(who, parcel.id, 'rate', { stars: 5 })).status).toBe(404);
      expect((await h.send('GET', `/delivery/orders/${parcel.id}`, { token: who.accessToken })).status).toBe(404);
    }
    for (const action of ['pickup', 'deliver']) {
      expect((await act(otherDriver, parcel.id, action, { code: parcel.codes.pickup })).status).toBe(404);
      expect((await act(stranger, parcel.id, action, { code: parcel.codes.pickup })).status).toBe(403); // a driver's route
    }
    expect((await h.send('GET', `/delivery/orders/${randomUUID()}`, { token: sender.accessToken })).status).toBe(404);
    expect((await act(sender, parcel.id, 'cancel', { reason: 'Đổi ý' })).status).toBe(200);
    expect((await act(sender, parcel.id, 'cancel')).body.code).toBe('DELIVERY_TRANSITION');
    expect((await act(driver, parcel.id, 'pickup', { code: parcel.codes.pickup })).body.code).toBe('DELIVERY_TRANSITION');
  });
});

describe('hand-over proofs', () => {
  it('lets two racing pickups with the right code move the parcel once', async () => {
    const { driver, parcel } = await assigned();
    const both = await Promise.all([
      act(driver, parcel.id, 'pickup', { code: parcel.codes.pickup }),
      act(driver, parcel.id, 'pickup', { code: parcel.codes.pickup }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.status === 409)!.body.code).toBe('DELIVERY_TRANSITION');
    const history = await h.service.history({ userId: 'admin', admin: true }, parcel.id);
    expect(history.items.map((m) => m.action)).toEqual(['place', 'assign', 'pickup']);
  });

  it('counts wrong codes (racing ones too) and locks code-proof after five; a photo still proves the hand-over', async () => {
    const { driver, parcel } = await assigned();
    const wrong = wrongOf(parcel.codes.pickup);
    const racing = await Promise.all([1, 2, 3].map(() => act(driver, parcel.id, 'pickup', { code: wrong })));
    expect(racing.map((r) => r.body.details.attemptsLeft).sort()).toEqual([2, 3, 4]);
    expect((await act(driver, parcel.id, 'pickup', { code: wrong })).body.details.attemptsLeft).toBe(1);
    const fifth = await act(driver, parcel.id, 'pickup', { code: wrong });
    expect([fifth.status, fifth.body.code]).toEqual([409, 'DELIVERY_CODE_LOCKED']);
    const right = await act(driver, parcel.id, 'pickup', { code: parcel.codes.pickup });
    expect([right.status, right.body.code]).toEqual([409, 'DELIVERY_CODE_LOCKED']);
    expect((await h.stored(parcel.id)).codes.pickup).toMatchObject({ failedAttempts: 5, lockedAt: expect.any(Number) });
    // The drop-off code is untouched by the pickup's tries.
    expect((await h.stored(parcel.id)).codes.dropoff.failedAttempts).toBe(0);
    for (const body of [{}, { code: '12a4' }, { code: '12345' }, { code: parcel.codes.pickup, photoId: 'p' }]) {
      const res = await act(driver, parcel.id, 'pickup', body);
      expect([res.status, res.body.details[0].field]).toEqual([400, 'body.code']);
    }
  });
});

describe('cancellation', () => {
  it('is free before a driver is assigned: the wallet hold goes back', async () => {
    const here = area();
    const sender = await registerVerified();
    await topUp(sender, 100_000);
    const placed = (await placeParcel(h, sender, here, { paymentMethod: 'WALLET' })).body;
    expect(placed.status).toBe('CREATED');
    expect((await walletOf(sender)).held).toBe(placed.feeVnd);
    const cancelled = await act(sender, placed.id, 'cancel', { reason: null });
    expect(cancelled.body).toMatchObject({ status: 'CANCELLED', cancelledBy: 'SENDER', cancellationFeeVnd: 0 });
    expect(await walletOf(sender)).toMatchObject({ balance: 100_000, held: 0 });
  });

  it('pays the driver the cancellation fee once assigned, frees them, and gives the rest of the hold back', async () => {
    const { sender, driver, parcel } = await assigned('WALLET');
    const cancelled = await act(sender, parcel.id, 'cancel', { reason: 'Không gửi nữa' });
    expect(cancelled.body).toMatchObject({ status: 'CANCELLED', cancellationFeeVnd: 10_000, cancelReason: 'Không gửi nữa' });
    expect(await h.pool.state(driver.user.id)).toMatchObject({ jobId: null });
    expect(await walletOf(sender)).toMatchObject({ balance: 90_000, held: 0 });
    expect(await earnings(driver)).toBe(8_000);
    await h.service.settle(await h.stored(parcel.id));
    expect(await walletOf(sender)).toMatchObject({ balance: 90_000, held: 0 });
    expect((await ledgerCheck(sender.user.id)).ok).toBe(true);
  });

  it('takes the fee of a cash sender from the wallet when it holds it, and leaves it owed otherwise', async () => {
    const funded = await assigned('CASH');
    await topUp(funded.sender, 50_000);
    await act(funded.sender, funded.parcel.id, 'cancel');
    expect((await walletOf(funded.sender)).balance).toBe(40_000);
    expect(await earnings(funded.driver)).toBe(8_000);
    const broke = await assigned('CASH');
    const res = await act(broke.sender, broke.parcel.id, 'cancel');
    expect(res.body).toMatchObject({ status: 'CANCELLED', cancellationFeeVnd: 10_000 });
    expect((await h.stored(broke.parcel.id)).payment.cancelFeePaymentId).toBeNull();
    expect(await earnings(broke.driver)).toBe(0);
  });
});

describe('administrators', () => {
  it('list and read every parcel with delivery.manage, cancel one under way without a fee, never their own', async () => {
    const { sender, driver, parcel } = await assigned('WALLET');
    await act(driver, parcel.id, 'pickup', { code: parcel.codes.pickup });
    const [admin, narrowed] = await Promise.all([adminTokens(), narrowedAdmin(['rides.manage'])]);
    expect((await h.send('GET', '/delivery/admin/orders', { token: narrowed.accessToken })).status).toBe(403);
    expect((await h.send('GET', `/delivery/orders/${parcel.id}`, { token: narrowed.accessToken })).status).toBe(404);
    expect((await h.send('GET', '/delivery/admin/orders', { token: sender.accessToken })).status).toBe(403);
    const seen = await h.send('GET', `/delivery/orders/${parcel.id}`, { token: admin.accessToken });
    expect(seen.body).toMatchObject({ id: parcel.id, codes: null, actions: ['adminCancel'] });
    const picked = await h.send('GET', '/delivery/admin/orders?status=PICKED_UP&limit=100', { token: admin.accessToken });
    expect(picked.body.items.map((d: { id: string }) => d.id)).toContain(parcel.id);
    expect((await h.send('GET', '/delivery/admin/orders?status=LOST', { token: admin.accessToken })).status).toBe(400);
    const noReason = await h.send('POST', `/delivery/admin/orders/${parcel.id}/cancel`, { token: admin.accessToken, body: {} });
    expect([noReason.status, noReason.body.details[0].field]).toEqual([400, 'body.reason']);
    const cancelled = await h.send('POST', `/delivery/admin/orders/${parcel.id}/cancel`, { token: admin.accessToken, body: { reason: 'Parcel refused' } });
    expect(cancelled.body).toMatchObject({ status: 'CANCELLED', cancelledBy: 'ADMIN', cancellationFeeVnd: 0 });
    expect(await walletOf(sender)).toMatchObject({ balance: 100_000, held: 0 });
    expect(await h.pool.state(driver.user.id)).toMatchObject({ jobId: null, sharedWith: null });
    const history = await h.send('GET', `/delivery/admin/orders/${parcel.id}/history`, { token: admin.accessToken });
    expect(history.body.items.map((m: { action: string; to: string }) => `${m.action}:${m.to}`)).toEqual([
      'place:CREATED',
      'assign:DRIVER_ASSIGNED',
      'pickup:PICKED_UP',
      'adminCancel:CANCELLED',
    ]);
    expect(history.body.items[3]).toMatchObject({ by: admin.user.id, reason: 'Parcel refused' });
    expect((await h.send('GET', `/delivery/admin/orders/${randomUUID()}/history`, { token: admin.accessToken })).status).toBe(404);
  });

  it('an administrator who sends a parcel is its sender only: 403 DELIVERY_SELF_MANAGE', async () => {
    const here = area();
    const admin = await adminTokens();
    const placed = (await placeParcel(h, admin, here)).body;
    const res = await h.send('POST', `/delivery/admin/orders/${placed.id}/cancel`, { token: admin.accessToken, body: { reason: 'Mine' } });
    expect([res.status, res.body.code]).toEqual([403, 'DELIVERY_SELF_MANAGE']);
    expect((await act(admin, placed.id, 'cancel')).status).toBe(200);
  });
});

describe('rating the driver', () => {
  it('is the sender’s, once, after delivery; the driver never sees it', async () => {
    const { sender, driver, parcel } = await assigned();
    const early = await act(sender, parcel.id, 'rate', { stars: 5 });
    expect([early.status, early.body.code]).toEqual([409, 'DELIVERY_RATING_WINDOW']);
    await act(driver, parcel.id, 'pickup', { code: parcel.codes.pickup });
    await act(driver, parcel.id, 'deliver', { code: parcel.codes.dropoff });
    const bad = await act(sender, parcel.id, 'rate', { stars: 6 });
    expect([bad.status, bad.body.details[0].field]).toEqual([400, 'body.stars']);
    expect((await act(driver, parcel.id, 'rate', { stars: 1 })).body.code).toBe('DELIVERY_NOT_ALLOWED');
    const rated = await act(sender, parcel.id, 'rate', { stars: 4, comment: 'Nhanh, cẩn thận' });
    expect(rated.status).toBe(201);
    expect(rated.body).toMatchObject({ deliveryId: parcel.id, stars: 4, comment: 'Nhanh, cẩn thận' });
    expect((await act(sender, parcel.id, 'rate', { stars: 5 })).body.code).toBe('DELIVERY_ALREADY_RATED');
    expect((await h.send('GET', `/delivery/orders/${parcel.id}`, { token: sender.accessToken })).body.rating).toMatchObject({ stars: 4 });
    expect((await h.send('GET', `/delivery/orders/${parcel.id}`, { token: driver.accessToken })).body.rating).toBeNull();
  });
});
