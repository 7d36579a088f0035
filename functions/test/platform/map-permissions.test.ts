import { randomUUID } from 'node:crypto';
import { registerVerified, type Tokens } from '../helpers/accounts';
import { call } from '../helpers/api';
import { requireEmulators } from '../helpers/emulators';
import { area } from '../helpers/geo';
import { partnerCast, type PartnerOwner } from '../helpers/partners';

beforeAll(requireEmulators);

// Item 2 of issue 29 for the map tab: the catalogs' admin routes and the admin path of the routes open to partners
// and administrators need catalog.manage; platform vouchers need promotions.manage. An admin holding [] gets 403.

let admin: Tokens, owner: PartnerOwner, user: Tokens;
let narrowed: Tokens, catalogAdmin: Tokens, promotionsAdmin: Tokens;

async function limitedAdmin(permissions: string[]): Promise<Tokens> {
  const helper = await registerVerified();
  expect((await call('PATCH', `/users/admin/${helper.user.id}/roles`, { token: admin.accessToken, body: { roles: ['ADMIN'] } })).status).toBe(200);
  expect((await call('PATCH', `/users/admin/${helper.user.id}`, { token: admin.accessToken, body: { permissions } })).body.permissions).toEqual(permissions);
  return helper;
}

beforeAll(async () => {
  ({ admin, owner, user } = await partnerCast('Bản đồ Một', 'Bản đồ Hai'));
  [narrowed, catalogAdmin, promotionsAdmin] = await Promise.all([limitedAdmin([]), limitedAdmin(['catalog.manage']), limitedAdmin(['promotions.manage'])]);
});

afterAll(async () => {
  for (const helper of [narrowed, catalogAdmin, promotionsAdmin])
    await call('PATCH', `/users/admin/${helper.user.id}/roles`, { token: admin.accessToken, body: { roles: ['USER'] } });
});

const send = (who: Tokens, method: string, path: string, body?: Record<string, unknown>) =>
  call(method, path, { token: who.accessToken, ...(body ? { body } : {}), headers: method === 'POST' ? { 'idempotency-key': randomUUID() } : {} });
const refused = (res: { status: number; body: { code?: string } }) => {
  expect(res.status).toBe(403);
  expect(res.body.code).toBe('PERMISSION_REQUIRED');
};

describe('catalogs need catalog.manage on their admin paths', () => {
  it('moderation lists, hide and restore', async () => {
    const here = area();
    const place = (await send(owner, 'POST', '/places', { partnerId: owner.partnerId, name: 'Quán Kiểm Duyệt', category: 'CAFE', location: here })).body;
    for (const base of ['/places', '/pharmacy/stores', '/parking/lots', '/fuel/stations', '/atm', '/merchants']) {
      refused(await send(narrowed, 'GET', `${base}/admin`));
      expect((await send(catalogAdmin, 'GET', `${base}/admin`)).status).toBe(200);
    }
    refused(await send(narrowed, 'POST', `/places/admin/${place.id}/hide`, { reason: 'Ảnh không phù hợp' }));
    refused(await send(promotionsAdmin, 'POST', `/places/admin/${place.id}/hide`, { reason: 'Ảnh không phù hợp' }));
    expect((await send(catalogAdmin, 'POST', `/places/admin/${place.id}/hide`, { reason: 'Ảnh không phù hợp' })).body.status).toBe('HIDDEN');
    refused(await send(narrowed, 'POST', `/places/admin/${place.id}/restore`));
    expect((await send(catalogAdmin, 'POST', `/places/admin/${place.id}/restore`)).body.status).toBe('ACTIVE');
  });

  it('curated records and any partner’s records: create, change, archive, history, products, free spaces, prices', async () => {
    const here = area();
    refused(await send(narrowed, 'POST', '/atm', { name: 'ATM VCB', bank: 'VCB', location: here }));
    const atm = await send(catalogAdmin, 'POST', '/atm', { name: 'ATM VCB', bank: 'VCB', location: here });
    expect(atm.status).toBe(201);
    refused(await send(narrowed, 'PATCH', `/atm/${atm.body.id}`, { deposit: true }));
    refused(await send(narrowed, 'GET', `/atm/${atm.body.id}/events`));
    refused(await send(narrowed, 'DELETE', `/atm/${atm.body.id}`));
    // Not even whether a record exists.
    refused(await send(narrowed, 'PATCH', '/atm/no-such-atm', { deposit: true }));
    refused(await send(narrowed, 'GET', '/atm/no-such-atm/events'));
    refused(await send(narrowed, 'DELETE', '/atm/no-such-atm'));
    expect((await send(catalogAdmin, 'PATCH', `/atm/${atm.body.id}`, { deposit: true })).body.deposit).toBe(true);

    const store = (await send(owner, 'POST', '/pharmacy/stores', { partnerId: owner.partnerId, name: 'Nhà thuốc Quyền', location: here.near(100) })).body;
    refused(await send(narrowed, 'PUT', `/pharmacy/stores/${store.id}/products/PARA`, { name: 'Paracetamol 500mg', priceVnd: 1_000, stock: 5, unit: 'viên' }));
    refused(await send(narrowed, 'PATCH', `/pharmacy/stores/${store.id}`, { name: 'Nhà thuốc Khác' }));
    const lot = (
      await send(owner, 'POST', '/parking/lots', {
        partnerId: owner.partnerId,
        name: 'Bãi xe Quyền',
        location: here.near(200),
        capacity: 10,
        freeSpaces: 5,
        pricesPerHour: { CAR: 10_000 },
      })
    ).body;
    refused(await send(narrowed, 'PUT', `/parking/lots/${lot.id}/availability`, { freeSpaces: 1 }));
    const station = (
      await send(owner, 'POST', '/fuel/stations', {
        partnerId: owner.partnerId,
        name: 'Cây xăng Quyền',
        brand: 'Petrolimex',
        prices: { RON95: 21_000 },
        location: here.near(300),
      })
    ).body;
    refused(await send(narrowed, 'PUT', `/fuel/stations/${station.id}/prices`, { prices: { RON95: 1_000 } }));
    expect((await send(catalogAdmin, 'PUT', `/fuel/stations/${station.id}/prices`, { prices: { RON95: 21_100 } })).status).toBe(200);
    // The price history: who changed it is for the managers and catalog.manage only.
    const history = (who: Tokens) => send(who, 'GET', `/fuel/stations/${station.id}/prices/history`);
    expect((await history(catalogAdmin)).body.items[0].by).toBe(catalogAdmin.user.id);
    // Issue 29: the station's managers see "ADMIN" for a moderator's change (their own changes keep their id).
    expect((await history(owner)).body.items[0].by).toBe('ADMIN');
    expect((await send(owner, 'PUT', `/fuel/stations/${station.id}/prices`, { prices: { RON95: 21_200 } })).status).toBe(200);
    expect((await history(owner)).body.items.map((c: { by: string }) => c.by)).toEqual([owner.user.id, 'ADMIN']);
    expect((await history(catalogAdmin)).body.items.map((c: { by: string }) => c.by)).toEqual([owner.user.id, catalogAdmin.user.id]);
    for (const who of [narrowed, user]) expect((await history(who)).body.items[0]).not.toHaveProperty('by');
  });

  it('a partner’s managers see "ADMIN" for a moderator in their record’s events; admins with catalog.manage see the account id (issue 29)', async () => {
    const place = (await send(owner, 'POST', '/places', { partnerId: owner.partnerId, name: 'Quán Sự Kiện', category: 'CAFE', location: area() })).body;
    expect((await send(catalogAdmin, 'POST', `/places/admin/${place.id}/hide`, { reason: 'Ảnh không phù hợp' })).status).toBe(200);
    expect((await send(catalogAdmin, 'POST', `/places/admin/${place.id}/restore`)).status).toBe(200);
    expect((await send(owner, 'DELETE', `/places/${place.id}`)).status).toBe(200);
    const events = async (who: Tokens) =>
      (await send(who, 'GET', `/places/${place.id}/events`)).body.events.map((e: { action: string; by: string }) => [e.action, e.by]);
    expect(await events(owner)).toEqual([
      ['archive', owner.user.id],
      ['restore', 'ADMIN'],
      ['hide', 'ADMIN'],
    ]);
    expect(await events(catalogAdmin)).toEqual([
      ['archive', owner.user.id],
      ['restore', catalogAdmin.user.id],
      ['hide', catalogAdmin.user.id],
    ]);
  });
});

describe('platform vouchers need promotions.manage', () => {
  const day = 86_400_000;
  const voucher = (extra: Record<string, unknown> = {}) => ({
    code: `P${randomUUID().replace(/-/g, '').slice(0, 10)}`.toUpperCase(),
    title: 'Giảm 10.000 ₫',
    kind: 'FIXED',
    value: 10_000,
    startsAt: new Date(Date.now() - day).toISOString(),
    endsAt: new Date(Date.now() + day).toISOString(),
    verticals: ['RIDE'],
    ...extra,
  });

  it('create, list, read and change; a partner’s own vouchers stay its staff’s', async () => {
    refused(await send(narrowed, 'POST', '/promotions/manage', voucher()));
    refused(await send(catalogAdmin, 'POST', '/promotions/manage', voucher()));
    const made = await send(promotionsAdmin, 'POST', '/promotions/manage', voucher());
    expect(made.status).toBe(201);
    refused(await send(narrowed, 'GET', '/promotions/manage'));
    expect((await send(promotionsAdmin, 'GET', '/promotions/manage')).status).toBe(200);
    refused(await send(narrowed, 'GET', `/promotions/manage/${made.body.id}`));
    refused(await send(narrowed, 'PATCH', `/promotions/manage/${made.body.id}`, { status: 'INACTIVE' }));
    refused(await send(narrowed, 'GET', '/promotions/manage/no-such-voucher'));
    expect((await send(promotionsAdmin, 'PATCH', `/promotions/manage/${made.body.id}`, { status: 'INACTIVE' })).body.status).toBe('INACTIVE');

    const own = await send(owner, 'POST', '/promotions/manage', voucher({ partnerId: owner.partnerId }));
    expect(own.status).toBe(201);
    refused(await send(narrowed, 'GET', `/promotions/manage?partnerId=${owner.partnerId}`));
    refused(await send(narrowed, 'PATCH', `/promotions/manage/${own.body.id}`, { title: 'Đổi bởi admin hẹp' }));
    expect((await send(promotionsAdmin, 'GET', `/promotions/manage?partnerId=${owner.partnerId}`)).body.items.map((p: { id: string }) => p.id)).toContain(
      own.body.id,
    );
  });
});
