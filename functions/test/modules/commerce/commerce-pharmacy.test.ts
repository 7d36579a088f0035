import { randomUUID } from 'node:crypto';
import { registerVerified } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { area, onlineCourier } from '../../helpers/drivers';
import { API, requireEmulators } from '../../helpers/emulators';
import { activePartner, staffOf, type PartnerOwner } from '../../helpers/partners';
import { addLine, checkout, deliverThrough, getOrder, stockOf, storeMove, uploadImage, type Here, type SellerRef } from './setup';

// A pharmacy store of the map tab (pharmacy module) selling through the same order flow: a prescription-only product
// needs the buyer's own prescription image at checkout, which the store's staff see on the order before confirming.
beforeAll(requireEmulators);
jest.setTimeout(90_000);

async function pharmacyAt(owner: PartnerOwner, here: Here): Promise<SellerRef> {
  const made = await call('POST', '/pharmacy/stores', {
    token: owner.accessToken,
    headers: { 'idempotency-key': randomUUID() },
    body: { partnerId: owner.partnerId, name: 'Nhà thuốc Long Châu 379', chain: 'Long Châu', location: here.near(0), openingHours: { open24h: true } },
  });
  if (made.status !== 201) throw new Error(`pharmacy ${made.status}: ${JSON.stringify(made.body)}`);
  const put = (sku: string, body: Record<string, unknown>) =>
    call('PUT', `/pharmacy/stores/${made.body.id}/products/${sku}`, { token: owner.accessToken, body });
  for (const [sku, body] of Object.entries({
    AMOX500: { name: 'Amoxicillin 500mg', priceVnd: 60_000, stock: 5, unit: 'vỉ', requiresPrescription: true },
    PANADOL: { name: 'Panadol Extra', priceVnd: 185_000, stock: 10 },
  }))
    expect((await put(sku, body)).status).toBe(200);
  return { kind: 'PHARMACY', id: made.body.id };
}

it('a prescription-only product: refused without the buyer’s image, ordered with it, read and confirmed by the store, delivered', async () => {
  const here = area();
  const [owner, rival] = await Promise.all([activePartner('Nhà thuốc Long Châu'), activePartner('Pharmacity')]);
  const [seller, staff, consumer, stranger, courier] = await Promise.all([
    pharmacyAt(owner, here),
    staffOf(owner),
    registerVerified({ name: 'Hoa' }),
    registerVerified(),
    onlineCourier(here.near(200)),
  ]);
  await addLine(consumer, seller, 'AMOX500', 2);
  await addLine(consumer, seller, 'PANADOL', 1);

  // Without a prescription the quote names the line and checkout refuses with nothing taken.
  const quote = await call('POST', '/cart/quote', { token: consumer.accessToken, body: { seller } });
  expect(quote.body.problems.map((p: { code: string }) => p.code)).toContain('CART_PRESCRIPTION_REQUIRED');
  const without = await checkout(consumer, seller, here, { method: 'CASH' });
  expect([without.status, without.body.code]).toEqual([422, 'CART_PRESCRIPTION_REQUIRED']);
  expect(without.body.details.lineIds).toHaveLength(1);
  // Someone else's image is not a prescription of the buyer's.
  const theirs = await checkout(consumer, seller, here, { method: 'CASH' }, { prescriptionMediaId: await uploadImage(stranger) });
  expect(theirs.body.code).toBe('CART_PRESCRIPTION_INVALID');
  expect(await stockOf(owner, seller, 'AMOX500')).toBe(5);

  const prescription = await uploadImage(consumer, 'don-thuoc-bac-si.png');
  const placed = await checkout(consumer, seller, here, { method: 'CASH' }, { prescriptionMediaId: prescription });
  expect(placed.status).toBe(201);
  const id = placed.body.order.id as string;
  expect(placed.body.order).toMatchObject({ status: 'PLACED', seller: { kind: 'PHARMACY', id: seller.id }, prescriptionMediaId: prescription });
  expect(placed.body.order.pricing.itemsVnd).toBe(2 * 60_000 + 185_000);
  expect([await stockOf(owner, seller, 'AMOX500'), await stockOf(owner, seller, 'PANADOL')]).toEqual([3, 9]);

  // The store's staff find it in the pharmacy's queue with the prescription to check; another partner sees nothing.
  const queue = await call('GET', `/pharmacy/stores/${seller.id}/orders`, { token: staff.accessToken });
  expect(queue.body.items.map((o: { id: string }) => o.id)).toContain(id);
  // The store reads the prescription on the order: its id and a short-lived link to the image (GET /media/{id}
  // answers only the uploader, so the order carries what the store needs to check it; never the permanent address).
  const upload = await call('GET', `/media/${prescription}`, { token: consumer.accessToken });
  expect(upload.body.publicUrl).toEqual(expect.any(String));
  const seenByStore = await getOrder(staff, id);
  expect(seenByStore.body).toMatchObject({
    prescriptionMediaId: prescription,
    prescriptionUrl: expect.any(String),
    lines: expect.arrayContaining([expect.objectContaining({ itemKey: 'AMOX500', quantity: 2 })]),
  });
  const [link, permanent] = [new URL(seenByStore.body.prescriptionUrl), new URL(upload.body.publicUrl)];
  expect(link.pathname).toBe(permanent.pathname);
  expect(link.searchParams.get('token')).not.toBe(permanent.searchParams.get('token'));
  const image = await fetch(`${API}${link.pathname.replace(/^\/api\/v1/, '')}${link.search}`);
  expect([image.status, image.headers.get('content-type')]).toEqual([200, 'image/png']);
  expect((await getOrder(rival, id)).status).toBe(404);
  expect((await call('POST', `/orders/${id}/confirm`, { token: rival.accessToken, body: {} })).status).toBe(404);

  const delivered = await deliverThrough(consumer, staff, courier, id);
  expect(delivered.status).toBe('DELIVERED');
  // The courier never sees the prescription.
  expect([delivered.prescriptionMediaId, delivered.prescriptionUrl]).toEqual([null, null]);
  const events = await call('GET', `/orders/${id}/events`, { token: consumer.accessToken });
  expect(events.body.items.map((e: { action: string }) => e.action)).toEqual(['place', 'confirm', 'preparing', 'ready', 'assign', 'pickup', 'deliver']);
});

it('a pharmacy order without a prescription-only line needs no image; a rejected one gives its stock back', async () => {
  const here = area();
  const owner = await activePartner('Nhà thuốc An Khang');
  const [seller, consumer] = await Promise.all([pharmacyAt(owner, here), registerVerified()]);
  await addLine(consumer, seller, 'PANADOL', 4);
  const placed = await checkout(consumer, seller, here, { method: 'CASH' });
  expect([placed.status, placed.body.order.prescriptionMediaId]).toEqual([201, null]);
  expect(await stockOf(owner, seller, 'PANADOL')).toBe(6);
  expect((await storeMove(owner, placed.body.order.id, 'reject', { reason: 'Hết hàng tại quầy' })).status).toBe('REJECTED');
  expect(await stockOf(owner, seller, 'PANADOL')).toBe(10);
});
