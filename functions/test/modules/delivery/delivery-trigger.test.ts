import { randomUUID } from 'node:crypto';
import { onDeliveryWritten } from '../../../src/modules/delivery/delivery.triggers';
import type { DocumentEvent } from '../../../src/platform/core/module/module';
import { registerVerified } from '../../helpers/accounts';
import { requireEmulators } from '../../helpers/emulators';
import { inboxOf } from '../../helpers/notifications';
import { config } from './harness';

// The trigger is delivered at least once: the same event twice notifies each party once (ids from the parcel, the
// event and the recipient), and settles an ended parcel's money each time (the settlement is idempotent).
beforeAll(requireEmulators);

const event = (id: string, before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined): DocumentEvent => ({
  id: `evt-${randomUUID()}`,
  time: new Date().toISOString(),
  params: { deliveryId: id },
  before: before && { id, data: before },
  after: after && { id, data: after },
});

describe('the status trigger delivered twice', () => {
  it('tells the sender and the driver of the assignment once each, with the parcel’s deep link', async () => {
    const [sender, driver] = await Promise.all([registerVerified(), registerVerified()]);
    const id = `D${randomUUID()}`;
    const parcel = {
      senderId: sender.user.id,
      driverId: driver.user.id,
      driver: { name: 'Hùng', phone: null, vehicle: null },
      pickup: { lat: 10.77, lng: 106.7, address: '12 Nguyễn Huệ', contact: { name: 'Lan', phone: '+84987654321' } },
      feeVnd: 26_000,
      cancelReason: null,
    };
    const settled: string[] = [];
    const service = { settle: async (d: { id: string; status: string }) => (settled.push(d.status), d as never) };
    const assigned = event(id, { ...parcel, status: 'CREATED', driverId: null }, { ...parcel, status: 'DRIVER_ASSIGNED' });
    expect(await onDeliveryWritten(assigned, config, undefined, service)).toBe(2);
    expect(await onDeliveryWritten(assigned, config, undefined, service)).toBe(2);
    const toSender = await inboxOf(sender.user.id, { entityId: id });
    const toDriver = await inboxOf(driver.user.id, { entityId: id });
    expect(toSender.map((n) => [n.event, n.kind, n.surface])).toEqual([['delivery.assigned', 'ORDER', 'CON']]);
    expect(toDriver.map((n) => [n.event, n.surface, n.title])).toEqual([['delivery.assigned', 'DRV', 'New parcel to deliver']]);
    expect(toSender[0].data.deepLink).toEqual({ tab: 'MapTab', screen: 'DeliveryTrack', params: { id, deliveryId: id, appLink: `app://deliveries/${id}` } });
    expect(toSender[0].data.sfx).toBe('notif_order');
    expect(settled).toEqual([]);

    const delivered = event(id, { ...parcel, status: 'PICKED_UP' }, { ...parcel, status: 'DELIVERED' });
    await onDeliveryWritten(delivered, config, undefined, service);
    await onDeliveryWritten(delivered, config, undefined, service);
    expect((await inboxOf(sender.user.id, { entityId: id, event: 'delivery.delivered' })).length).toBe(1);
    expect((await inboxOf(driver.user.id, { entityId: id, event: 'delivery.delivered' })).length).toBe(1);
    expect(settled).toEqual(['DELIVERED', 'DELIVERED']);
    // A write that moves no status (a payment id recorded) notifies nobody and settles nothing.
    expect(await onDeliveryWritten(event(id, { ...parcel, status: 'DELIVERED' }, { ...parcel, status: 'DELIVERED' }), config, undefined, service)).toBe(0);
    expect(settled).toHaveLength(2);
  });
});
