import { randomUUID } from 'node:crypto';
import { onPaymentWritten } from '../../src/modules/payments/payments.triggers';
import { onRideWritten, onSosCreated } from '../../src/modules/rides/rides.triggers';
import { onTransferCreated, onWithdrawalWritten } from '../../src/modules/wallet/wallet.triggers';
import { db } from '../../src/platform/core/firebase/firebase';
import type { DocumentEvent } from '../../src/platform/core/module/module';
import { adminTokens, registerVerified } from '../helpers/accounts';
import { testConfig } from '../helpers/config';
import { requireEmulators } from '../helpers/emulators';
import { USERS } from '../../src/modules/users/users.model';
import { inboxOf } from '../helpers/notifications';

beforeAll(requireEmulators);

// Triggers are delivered at least once: each of these runs twice with the same event and must notify once.
const config = testConfig({ PAYMENTS_MOCK: 'true' });
const event = (id: string, before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined): DocumentEvent => ({
  id: `evt-${randomUUID()}`,
  time: new Date().toISOString(),
  params: {},
  before: before && { id, data: before },
  after: after && { id, data: after },
});
describe('the same trigger event delivered twice notifies once', () => {
  it('payments: a top-up succeeded and a refund', async () => {
    const payer = await registerVerified();
    const base = { payerId: payer.user.id, amount: 50_000, purpose: 'TOPUP', refunds: [] as unknown[] };
    const settled = event('P-dup-1', { ...base, status: 'PENDING' }, { ...base, status: 'SUCCEEDED' });
    await onPaymentWritten(settled, config);
    await onPaymentWritten(settled, config);
    expect((await inboxOf(payer.user.id, { event: 'wallet.topup.succeeded' })).length).toBe(1);
    const refund = { id: 'R1', amount: 10_000, reason: 'x', by: payer.user.id, at: 1, gateway: { state: 'SETTLED', reference: null } };
    const refunded = event('P-dup-1', { ...base, status: 'SUCCEEDED' }, { ...base, status: 'PARTIALLY_REFUNDED', refunds: [refund] });
    await onPaymentWritten(refunded, config);
    await onPaymentWritten(refunded, config);
    expect((await inboxOf(payer.user.id, { event: 'payment.refunded' })).length).toBe(1);
  });

  it('wallet: a transfer received and a withdrawal decided', async () => {
    const [from, to, driver] = await Promise.all([registerVerified({ name: 'An' }), registerVerified(), registerVerified()]);
    const p2p = event(`op-${randomUUID()}`, undefined, {
      fromUserId: from.user.id,
      toUserId: to.user.id,
      amount: 5_000,
      note: null,
      transferId: `t-${randomUUID()}-0`,
      at: 1,
    });
    await onTransferCreated(p2p, config);
    await onTransferCreated(p2p, config);
    expect((await inboxOf(to.user.id, { event: 'wallet.transfer.received' })).length).toBe(1);
    await db()
      .collection(USERS)
      .doc(driver.user.id)
      .update({ roles: ['DRIVER'] });
    const w = { userId: driver.user.id, amount: 100_000, reason: null };
    const approved = event(`w-${randomUUID()}`, { ...w, status: 'PENDING' }, { ...w, status: 'APPROVED' });
    await onWithdrawalWritten(approved, config);
    await onWithdrawalWritten(approved, config);
    expect((await inboxOf(driver.user.id, { event: 'wallet.withdrawal.approved' })).length).toBe(1);
  });

  it('rides: a ride matched, and an SOS to the administrators', async () => {
    const [rider, driver, admin] = await Promise.all([registerVerified(), registerVerified(), adminTokens()]);
    const ride = {
      riderId: rider.user.id,
      driverId: driver.user.id,
      participants: [rider.user.id, driver.user.id],
      quote: { fare: 20_000 },
      driver: { name: 'Hùng', vehicle: null, rating: null },
    };
    const matched = event(`R-${randomUUID()}`, undefined, { ...ride, status: 'CONFIRMED' });
    // Each active status's timer starts from the trigger: asked again on a repeat (one task id per ride and status),
    // on arrival, reassignment and pickup, never once the ride ended.
    const scheduled: string[] = [];
    const rides = { settleAndRecord: async <R>(r: R) => r, scheduleExpiry: async (r: { id: string }) => void scheduled.push(r.id) };
    await onRideWritten(matched, config, undefined, rides);
    await onRideWritten(matched, config, undefined, rides);
    expect([(await inboxOf(rider.user.id, { event: 'ride.matched' })).length, (await inboxOf(driver.user.id, { event: 'ride.matched' })).length]).toEqual([
      1, 1,
    ]);
    expect(scheduled).toEqual([matched.after!.id, matched.after!.id]);
    await onRideWritten(event(matched.after!.id, { ...ride, status: 'CONFIRMED' }, { ...ride, status: 'ARRIVED' }), config, undefined, rides);
    await onRideWritten(
      event(matched.after!.id, { ...ride, status: 'CONFIRMED' }, { ...ride, status: 'CONFIRMED', driverId: rider.user.id }),
      config,
      undefined,
      rides,
    );
    await onRideWritten(event(matched.after!.id, { ...ride, status: 'ARRIVED' }, { ...ride, status: 'IN_PROGRESS' }), config, undefined, rides);
    await onRideWritten(event(matched.after!.id, { ...ride, status: 'IN_PROGRESS' }, { ...ride, status: 'COMPLETED', fare: 20_000 }), config, undefined, rides);
    expect(scheduled).toHaveLength(5);
    const rideId = `R-${randomUUID()}`;
    const sos = event(`S-${randomUUID()}`, undefined, {
      rideId,
      raisedBy: rider.user.id,
      role: 'RIDER',
      message: 'help',
      location: null,
      status: 'OPEN',
      createdAt: 1,
    });
    await onSosCreated(sos, config);
    await onSosCreated(sos, config);
    const adminItems = (await inboxOf(admin.user.id, { entityId: rideId })).length;
    expect(adminItems).toBe(1);
  });
});
