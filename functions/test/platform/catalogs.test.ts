import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { defineCatalog, defineCatalogItems } from '../../src/platform/kits/catalog/catalog.spec';
import { defineCatalogVertical } from '../../src/platform/kits/catalog/catalog.vertical';
import { PHARMACY_PRODUCTS, PHARMACY_STORES } from '../../src/modules/pharmacy/pharmacy.collections';
import type { Tokens } from '../helpers/accounts';
import { call } from '../helpers/api';
import { requireEmulators } from '../helpers/emulators';
import { area } from '../helpers/geo';
import { partnerCast, type PartnerOwner } from '../helpers/partners';

beforeAll(requireEmulators);

// The other catalogs on the kit (places.test.ts covers the kit itself): each vertical's own fields, filters and
// operations, and that another partner cannot touch a record.

let admin: Tokens, owner: PartnerOwner, rival: PartnerOwner, user: Tokens;
beforeAll(async () => {
  ({ admin, owner, rival, user } = await partnerCast('Chuỗi Một', 'Chuỗi Hai'));
});

const post = (who: Tokens, path: string, body: Record<string, unknown>) =>
  call('POST', path, { token: who.accessToken, body, headers: { 'idempotency-key': randomUUID() } });
const ids = (res: { body: { items: Array<{ id: string }> } }) => res.body.items.map((i) => i.id);
const near = (path: string, at: { lat: number; lng: number }, extra = '') =>
  call('GET', `${path}/nearby?lat=${at.lat}&lng=${at.lng}&radiusM=3000${extra}`, { token: user.accessToken });

describe('pharmacy', () => {
  it('stores nearby (24h filter), products with stock, and which store near me has a product', async () => {
    const here = area();
    const store = (d: number, name: string, hours: Record<string, unknown>) =>
      post(owner, '/pharmacy/stores', { partnerId: owner.partnerId, name, chain: 'Long Châu', location: here.near(d), openingHours: hours });
    const allNight = (await store(200, 'Long Châu 24h', { open24h: true })).body;
    const day = (await store(600, 'Long Châu Ngày', { weekly: [{ day: 'MON', open: '07:00', close: '21:00' }] })).body;
    const far = (await store(8_000, 'Long Châu Xa', { open24h: true })).body;
    expect(ids(await near('/pharmacy/stores', here))).toEqual([allNight.id, day.id]);
    expect(ids(await near('/pharmacy/stores', here, '&open24h=true'))).toEqual([allNight.id]);

    const tag = `zx${randomUUID().slice(0, 5)}`;
    const put = (who: Tokens, storeId: string, sku: string, body: Record<string, unknown>) =>
      call('PUT', `/pharmacy/stores/${storeId}/products/${sku}`, { token: who.accessToken, body });
    expect((await put(owner, allNight.id, 'PAN-500', { name: `Panadol Extra ${tag}`, priceVnd: 45_000, stock: 12 })).body).toMatchObject({
      inStock: true,
      unit: 'hộp',
      requiresPrescription: false,
    });
    await put(owner, day.id, 'PAN-500', { name: `Panadol Extra ${tag}`, priceVnd: 44_000, stock: 0 });
    await put(owner, day.id, 'AMOX', { name: `Amoxicillin 500mg ${tag}`, priceVnd: 60_000, stock: 5, requiresPrescription: true });
    await put(owner, far.id, 'PAN-500', { name: `Panadol Extra ${tag}`, priceVnd: 46_000, stock: 3 });
    expect((await put(rival, allNight.id, 'PAN-500', { name: 'Của tôi', priceVnd: 1, stock: 1 })).body.code).toBe('CATALOG_NOT_MANAGER');
    expect((await put(owner, allNight.id, 'bad sku!', { name: 'x', priceVnd: 1, stock: 1 })).status).toBe(404);
    expect((await put(owner, allNight.id, 'NEG', { name: 'Âm', priceVnd: -1, stock: 1 })).status).toBe(400);

    const found = await call('GET', `/pharmacy/products/search?q=${encodeURIComponent(`panadol ${tag}`)}&lat=${here.lat}&lng=${here.lng}&radiusM=3000`, {
      token: user.accessToken,
    });
    expect(found.status).toBe(200);
    expect(found.body.items.map((i: { store: { id: string } }) => i.store.id)).toEqual([allNight.id]); // the day store is out of stock, the other is 8 km away
    expect(found.body.items[0].products).toEqual([expect.objectContaining({ sku: 'PAN-500', priceVnd: 45_000, stock: 12 })]);
    expect(found.body.items[0].store.distanceM).toBeCloseTo(200, -1);

    const list = await call('GET', `/pharmacy/stores/${day.id}/products?q=amoxi`, { token: user.accessToken });
    expect(list.body.items.map((p: { sku: string }) => p.sku)).toEqual(['AMOX']);
    expect(
      (await call('GET', `/pharmacy/stores/${day.id}/products?inStock=true`, { token: user.accessToken })).body.items.map((p: { sku: string }) => p.sku),
    ).toEqual(['AMOX']);
    expect((await call('DELETE', `/pharmacy/stores/${day.id}/products/AMOX`, { token: rival.accessToken })).status).toBe(403);
    expect((await call('DELETE', `/pharmacy/stores/${day.id}/products/AMOX`, { token: owner.accessToken })).status).toBe(200);
    expect((await call('DELETE', `/pharmacy/stores/${day.id}/products/AMOX`, { token: owner.accessToken })).status).toBe(404);
  });

  it.each(['lat=abc&lng=106.7', 'lat=10.7&lng=', 'lng=106.7', 'lat=10.7&lng=200'])('GET /pharmacy/stores/nearby?%s → 400', async (qs) => {
    const res = await call('GET', `/pharmacy/stores/nearby?${qs}`, { token: user.accessToken });
    expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
  });
});

describe('parking', () => {
  it('lots with capacity, hourly prices and live free spaces; nearby filters by free spaces and vehicle', async () => {
    const here = area();
    const lot = (d: number, extra: Record<string, unknown>) =>
      post(owner, '/parking/lots', {
        partnerId: owner.partnerId,
        name: `Bãi xe ${d}`,
        location: here.near(d),
        capacity: 50,
        freeSpaces: 10,
        pricesPerHour: { MOTORBIKE: 5_000 },
        ...extra,
      });
    expect((await lot(0, { capacity: 10, freeSpaces: 20 })).body.details).toEqual([{ field: 'body.freeSpaces', message: 'must be at most capacity (10)' }]);
    expect((await lot(0, { pricesPerHour: {} })).status).toBe(400);
    const bikes = (await lot(100, { freeSpaces: 2 })).body;
    const cars = (await lot(300, { freeSpaces: 40, pricesPerHour: { CAR: 30_000, MOTORBIKE: 6_000 }, covered: true })).body;
    expect(ids(await near('/parking/lots', here))).toEqual([bikes.id, cars.id]);
    expect(ids(await near('/parking/lots', here, '&minFree=5'))).toEqual([cars.id]);
    expect(ids(await near('/parking/lots', here, '&vehicleType=CAR'))).toEqual([cars.id]);
    expect((await near('/parking/lots', here, '&minFree=-1')).status).toBe(400);

    // Two gates report at once: both changes count.
    const report = (who: Tokens, body: Record<string, unknown>) => call('PUT', `/parking/lots/${bikes.id}/availability`, { token: who.accessToken, body });
    const both = await Promise.all([report(owner, { delta: -1 }), report(owner, { delta: -1 })]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect((await call('GET', `/parking/lots/${bikes.id}`, { token: user.accessToken })).body.freeSpaces).toBe(0);
    expect((await report(owner, { delta: -1 })).body).toMatchObject({ code: 'PARKING_SPACES_OUT_OF_RANGE', details: { freeSpaces: 0, capacity: 50 } });
    expect((await report(owner, { freeSpaces: 51 })).body.code).toBe('PARKING_SPACES_OUT_OF_RANGE');
    expect((await report(owner, { freeSpaces: 3, delta: 1 })).status).toBe(400);
    expect((await report(rival, { freeSpaces: 3 })).body.code).toBe('CATALOG_NOT_MANAGER');
    expect((await report(owner, { freeSpaces: 7 })).body.freeSpaces).toBe(7);
    // Free spaces change through availability only.
    expect((await call('PATCH', `/parking/lots/${bikes.id}`, { token: owner.accessToken, body: { freeSpaces: 1 } })).status).toBe(400);
    expect((await call('PATCH', `/parking/lots/${bikes.id}`, { token: owner.accessToken, body: { capacity: 5 } })).body.details[0].field).toBe(
      'body.freeSpaces',
    );
  });
});

describe('fuel', () => {
  it('nearest or cheapest first by fuel type, prices changed with history by managers or an administrator', async () => {
    const here = area();
    const station = (d: number, brand: string, prices: Record<string, number>) =>
      post(owner, '/fuel/stations', { partnerId: owner.partnerId, name: `Cây xăng ${brand} ${d}`, brand, prices, location: here.near(d) });
    const a = (await station(100, 'Petrolimex', { RON95: 21_000, E5: 20_000 })).body;
    const b = (await station(500, 'PVOIL', { RON95: 20_500, E5: 19_500, DIESEL: 18_000 })).body;
    const c = (await station(900, 'Petrolimex', { DIESEL: 17_900 })).body;
    expect(ids(await near('/fuel/stations', here))).toEqual([a.id, b.id, c.id]);
    expect(ids(await near('/fuel/stations', here, '&fuelType=E5&sort=price'))).toEqual([b.id, a.id]);
    expect(ids(await near('/fuel/stations', here, '&fuelType=DIESEL'))).toEqual([b.id, c.id]);
    expect(ids(await near('/fuel/stations', here, '&brand=petrolimex'))).toEqual([a.id, c.id]);
    expect((await near('/fuel/stations', here, '&sort=price')).body.code).toBe('FUEL_PRICE_TYPE_REQUIRED');

    const setPrices = (who: Tokens, prices: Record<string, number>) =>
      call('PUT', `/fuel/stations/${a.id}/prices`, { token: who.accessToken, body: { prices } });
    expect((await setPrices(owner, { RON95: 21_500, E5: 20_300 })).body.prices).toEqual({ RON95: 21_500, E5: 20_300 });
    expect((await setPrices(admin, { RON95: 21_200, E5: 20_100 })).status).toBe(200);
    expect((await setPrices(rival, { RON95: 1_000 })).body.code).toBe('CATALOG_NOT_MANAGER');
    expect((await setPrices(owner, { RON95: 50 })).status).toBe(400);
    expect((await call('PATCH', `/fuel/stations/${a.id}`, { token: owner.accessToken, body: { prices: { RON95: 1_000 } } })).status).toBe(400);
    // Who changed a price is the station's managers' and the administrators' business, not the public's.
    const history = await call('GET', `/fuel/stations/${a.id}/prices/history`, { token: user.accessToken });
    expect(history.body.items.map((h: { after: Record<string, number> }) => h.after.RON95)).toEqual([21_200, 21_500]);
    expect(history.body.items.every((h: object) => !('by' in h))).toBe(true);
    expect(history.body.items[1].before).toEqual({ RON95: 21_000, E5: 20_000 });
    // The managers see their own ids and ADMIN for a moderator's change (issue 29); administrators see every id.
    for (const [who, adminShownAs] of [
      [owner, 'ADMIN'],
      [admin, admin.user.id],
    ] as const) {
      const seen = await call('GET', `/fuel/stations/${a.id}/prices/history`, { token: who.accessToken });
      expect(seen.body.items.map((h: { by: string }) => h.by)).toEqual([adminShownAs, owner.user.id]);
    }
    expect((await call('GET', `/fuel/stations/${a.id}/prices/history`, { token: rival.accessToken })).body.items.every((h: object) => !('by' in h))).toBe(true);
  });
});

describe('atm', () => {
  it('curated ATMs by bank, 24h and deposit; the bank list', async () => {
    const here = area();
    const atm = (d: number, bank: string, extra: Record<string, unknown> = {}) =>
      post(admin, '/atm', { name: `ATM ${bank} ${d}`, bank, location: here.near(d), ...extra });
    const vcb = (await atm(50, 'VCB', { openingHours: { open24h: true }, deposit: true })).body;
    const tcb = (await atm(150, 'TCB', { openingHours: { open24h: true } })).body;
    const bidv = (await atm(250, 'BIDV', { openingHours: { weekly: [{ day: 'MON', open: '08:00', close: '17:00' }] } })).body;
    expect(ids(await near('/atm', here))).toEqual([vcb.id, tcb.id, bidv.id]);
    expect(ids(await near('/atm', here, '&bank=TCB'))).toEqual([tcb.id]);
    expect(ids(await near('/atm', here, '&open24h=true'))).toEqual([vcb.id, tcb.id]);
    expect(ids(await near('/atm', here, '&deposit=true'))).toEqual([vcb.id]);
    expect((await near('/atm', here, '&bank=XYZ')).status).toBe(400);
    expect((await atm(0, 'XYZ')).status).toBe(400);
    expect((await post(owner, '/atm', { name: 'ATM lậu', bank: 'VCB', location: here.near(0) })).body.code).toBe('CATALOG_NOT_MANAGER');
    expect((await call('PATCH', `/atm/${vcb.id}`, { token: owner.accessToken, body: { deposit: false } })).status).toBe(403);
    expect((await call('GET', '/atm/banks', { token: user.accessToken })).body.banks).toContainEqual({ code: 'VCB', name: 'Vietcombank' });
  });
});

// Child items without stock, declared as a next vertical would (a clinic's doctors), driven through the kit's services.
// Stored in the pharmacy collections (parentField storeId): deploy:check finds their query shapes among the indexes.
describe('catalog child items (a clinic’s doctors)', () => {
  const clinics = defineCatalogVertical(
    defineCatalog({
      tag: 'places',
      collection: PHARMACY_STORES,
      basePath: '/test-clinics',
      noun: 'clinic',
      nouns: 'clinics',
      schemaName: 'TestClinic',
      pluralName: 'TestClinics',
      details: z.object({}),
      maxRadiusM: 5_000,
      filters: z.object({}),
      items: defineCatalogItems({
        collection: PHARMACY_PRODUCTS,
        segment: 'doctors',
        parentField: 'storeId',
        keyField: 'doctorId',
        noun: 'doctor',
        nouns: 'doctors',
        parentNoun: 'clinic',
        parentNouns: 'clinics',
        schemaName: 'TestClinicDoctor',
        pluralName: 'TestClinicDoctors',
        body: z.object({ name: z.string(), specialty: z.string() }),
        view: z.object({ name: z.string(), specialty: z.string() }),
        nearbySearch: { path: '/test-clinics/doctors/search', summary: 'Clinics near me with a doctor', perRecord: 5 },
      }),
    }),
    {
      deps: () => ({
        partnerRole: async (partnerId, userId) => (partnerId === 'clinic-p' && userId === 'clinic-owner' ? 'OWNER' : undefined),
        photo: async () => undefined,
      }),
    },
  );
  const manager = { userId: 'clinic-owner', roles: ['USER' as const, 'PARTNER_OWNER' as const] };
  const stranger = { userId: 'clinic-rival', roles: ['USER' as const, 'PARTNER_OWNER' as const] };
  const visitor = { userId: 'clinic-visitor', roles: ['USER' as const] };

  it('managers put and remove doctors; anyone lists and searches them near a point; strangers and archived clinics are refused', async () => {
    const here = area();
    const tag = `dr${randomUUID().slice(0, 5)}`;
    const clinic = await clinics.service().create(manager, { partnerId: 'clinic-p', name: `Phòng khám ${tag}`, location: here.near(300) });
    const doctors = clinics.items();
    const lan = await doctors.put(clinic.id, 'dr-lan', manager, { name: `Bác sĩ Lan ${tag}`, specialty: 'Nhi' });
    expect(lan).toEqual({ storeId: clinic.id, doctorId: 'dr-lan', name: `Bác sĩ Lan ${tag}`, specialty: 'Nhi', updatedAt: expect.any(String) });
    expect(lan).not.toHaveProperty('inStock'); // no stock declared
    await doctors.put(clinic.id, 'dr-minh', manager, { name: `Bác sĩ Minh ${tag}`, specialty: 'Tim mạch' });
    await expect(doctors.put(clinic.id, 'dr-x', stranger, { name: 'Không phải', specialty: 'Nhi' })).rejects.toMatchObject({ code: 'CATALOG_NOT_MANAGER' });

    const listed = await doctors.list(clinic.id, visitor, { q: 'minh', limit: 10 });
    expect(listed.items.map((d) => d.doctorId)).toEqual(['dr-minh']);
    const found = await doctors.searchNearby({ q: `lan ${tag}`, lat: here.lat, lng: here.lng, radiusM: 1_000, limit: 5 }, visitor, { budget: 50 });
    expect(found.items.map((i) => [i.clinic.id, i.doctors.map((d) => d.doctorId)])).toEqual([[clinic.id, ['dr-lan']]]);

    await expect(doctors.remove(clinic.id, 'dr-lan', stranger)).rejects.toMatchObject({ code: 'CATALOG_NOT_MANAGER' });
    expect(await doctors.remove(clinic.id, 'dr-lan', manager)).toEqual({ deleted: true });
    await expect(doctors.remove(clinic.id, 'dr-lan', manager)).rejects.toMatchObject({ statusCode: 404 });
    await clinics.service().archive(clinic.id, manager);
    await expect(doctors.put(clinic.id, 'dr-lan', manager, { name: 'Lan', specialty: 'Nhi' })).rejects.toMatchObject({ code: 'CATALOG_TRANSITION' });
    await expect(doctors.list(clinic.id, visitor, { limit: 10 })).rejects.toMatchObject({ statusCode: 404 }); // an archived clinic is not public
  });
});

// Items with what menus need (optional stock, availability, a cap, fields only managers see), declared as a next
// vertical would (a bakery's cakes) and stored in the pharmacy collections like the clinic above.
describe('catalog child items with optional stock, availability, a cap and manager-only fields (a bakery’s cakes)', () => {
  const bakeries = defineCatalogVertical(
    defineCatalog({
      tag: 'places',
      collection: PHARMACY_STORES,
      basePath: '/test-bakeries',
      noun: 'bakery',
      nouns: 'bakeries',
      schemaName: 'TestBakery',
      pluralName: 'TestBakeries',
      details: z.object({}),
      maxRadiusM: 5_000,
      filters: z.object({}),
      partnerRequired: true,
      items: defineCatalogItems({
        collection: PHARMACY_PRODUCTS,
        segment: 'cakes',
        parentField: 'storeId',
        keyField: 'cakeKey',
        noun: 'cake',
        nouns: 'cakes',
        parentNoun: 'bakery',
        parentNouns: 'bakeries',
        schemaName: 'TestBakeryCake',
        pluralName: 'TestBakeryCakes',
        stock: 'optional',
        availability: true,
        managerFields: ['stock'],
        maxPerRecord: 2,
        body: z.object({ name: z.string(), stock: z.number().int().nullable(), available: z.boolean() }),
        view: z.object({ name: z.string(), stock: z.number().int().nullable().optional(), available: z.boolean(), inStock: z.boolean() }),
      }),
    }),
    {
      deps: () => ({
        partnerRole: async (partnerId, userId) => (partnerId === 'bakery-p' && userId === 'bakery-owner' ? 'OWNER' : undefined),
        photo: async () => undefined,
      }),
    },
  );
  const manager = { userId: 'bakery-owner', roles: ['USER' as const, 'PARTNER_OWNER' as const] };
  const visitor = { userId: 'bakery-visitor', roles: ['USER' as const] };

  it('stock null is not counted, 0 or turned off is not in stock; the cap holds new keys only; visitors see no stock', async () => {
    await expect(bakeries.service().create(manager, { name: 'Tiệm bánh', location: area() })).rejects.toMatchObject({ statusCode: 400 });
    const bakery = await bakeries.service().create(manager, { partnerId: 'bakery-p', name: `Tiệm bánh ${randomUUID().slice(0, 5)}`, location: area() });
    const cakes = bakeries.items();
    expect((await cakes.put(bakery.id, 'bong-lan', manager, { name: 'Bông lan', stock: null, available: true })).inStock).toBe(true);
    expect((await cakes.put(bakery.id, 'su-kem', manager, { name: 'Su kem', stock: 0, available: true })).inStock).toBe(false);
    await expect(cakes.put(bakery.id, 'tiramisu', manager, { name: 'Tiramisu', stock: 3, available: true })).rejects.toMatchObject({
      statusCode: 409,
      details: { limit: 2 },
    });
    expect((await cakes.put(bakery.id, 'su-kem', manager, { name: 'Su kem', stock: 4, available: true })).inStock).toBe(true);

    const changed = await cakes.setAvailability(bakery.id, manager, [{ key: 'bong-lan', available: false }]);
    expect(changed.map((c) => [c.cakeKey, c.available, c.inStock])).toEqual([['bong-lan', false, false]]);
    await expect(
      cakes.setAvailability(bakery.id, manager, [
        { key: 'su-kem', available: false },
        { key: 'tiramisu', available: false },
      ]),
    ).rejects.toMatchObject({ statusCode: 400, details: [{ field: 'body.items.1.cakeKey', message: expect.any(String) }] });
    await expect(cakes.setAvailability(bakery.id, visitor, [{ key: 'su-kem', available: false }])).rejects.toMatchObject({ code: 'CATALOG_NOT_MANAGER' });

    const seen = async (who: typeof manager | typeof visitor, inStock?: boolean) =>
      (await cakes.list(bakery.id, who, { limit: 10, inStock })).items.map((c) => [c.cakeKey, 'stock' in c ? c.stock : 'hidden']);
    expect(await seen(manager)).toEqual([
      ['bong-lan', null],
      ['su-kem', 4],
    ]);
    expect(await seen(visitor)).toEqual([
      ['bong-lan', 'hidden'],
      ['su-kem', 'hidden'],
    ]);
    expect(await seen(visitor, true)).toEqual([['su-kem', 'hidden']]);
  });
});
