import { randomUUID } from 'node:crypto';
import { adminTokens, registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { onlineDriver } from '../../helpers/drivers';
import { requireEmulators } from '../../helpers/emulators';
import { area } from '../../helpers/geo';

beforeAll(requireEmulators);

const save = (who: Tokens, body: Record<string, unknown>) =>
  call('POST', '/addresses', { token: who.accessToken, body, headers: { 'idempotency-key': randomUUID() } });
const at = { lat: 10.7769, lng: 106.7009 };

describe('addresses', () => {
  it('first is the default; one HOME and one WORK; a new default replaces the old; deleting the default passes it on', async () => {
    const me = await registerVerified();
    const home = await save(me, { label: 'HOME', address: '12 Lê Lợi, Quận 1', location: at, driverNote: 'Cổng sau' });
    expect(home.status).toBe(201);
    expect(home.body).toMatchObject({ label: 'HOME', isDefault: true, driverNote: 'Cổng sau', title: null });
    expect((await save(me, { label: 'HOME', address: '1 Khác', location: at })).body.code).toBe('ADDRESS_LABEL_TAKEN');
    const work = (await save(me, { label: 'WORK', address: '2 Hai Bà Trưng', location: at, isDefault: true })).body;
    const gym = (await save(me, { label: 'OTHER', title: 'Gym', address: '3 Pasteur', location: at, contactPhone: '+84912345678' })).body;
    let list = (await call('GET', '/addresses', { token: me.accessToken })).body.items;
    expect(list.map((a: { id: string; isDefault: boolean }) => [a.id, a.isDefault])).toEqual([
      [work.id, true],
      [home.body.id, false],
      [gym.id, false],
    ]);

    expect((await call('POST', `/addresses/${gym.id}/default`, { token: me.accessToken })).body.isDefault).toBe(true);
    expect((await call('PATCH', `/addresses/${gym.id}`, { token: me.accessToken, body: { label: 'WORK' } })).body.code).toBe('ADDRESS_LABEL_TAKEN');
    const changed = await call('PATCH', `/addresses/${gym.id}`, {
      token: me.accessToken,
      body: { title: null, driverNote: 'Tầng 3', location: { lat: 10.78, lng: 106.7 } },
    });
    expect(changed.body).toMatchObject({ title: null, driverNote: 'Tầng 3', location: { lat: 10.78 }, contactPhone: '+84912345678', isDefault: true });
    expect((await call('DELETE', `/addresses/${gym.id}`, { token: me.accessToken })).status).toBe(200);
    list = (await call('GET', '/addresses', { token: me.accessToken })).body.items;
    expect(list.map((a: { id: string; isDefault: boolean }) => [a.id, a.isDefault])).toEqual([
      [home.body.id, true],
      [work.id, false],
    ]); // HOME inherits

    // Another user's address is nobody's business.
    const other = await registerVerified();
    for (const [method, path] of [
      ['GET', `/addresses/${home.body.id}`],
      ['PATCH', `/addresses/${home.body.id}`],
      ['DELETE', `/addresses/${home.body.id}`],
      ['POST', `/addresses/${home.body.id}/default`],
    ] as const) {
      expect((await call(method, path, { token: other.accessToken, body: method === 'PATCH' ? { title: 'x' } : undefined })).status).toBe(404);
    }
  });

  it('at most 20, also when saved in parallel; bad input is 400; drivers have no consumer addresses', async () => {
    const me = await registerVerified();
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) => save(me, { label: 'OTHER', title: `Điểm ${i}`, address: `${i} Nguyễn Huệ`, location: at })),
    );
    const statuses = answers.map((a) => (a.status === 503 ? 'CONTENDED' : a.status));
    const saved = statuses.filter((s) => s === 201).length;
    expect(statuses.every((s) => s === 201 || s === 409 || s === 'CONTENDED')).toBe(true);
    expect(saved).toBeLessThanOrEqual(20);
    // Retry what contended, like an app would, until the list is full.
    for (let i = saved; i < 25; i += 1) await save(me, { label: 'OTHER', address: `${i} Đồng Khởi`, location: at });
    const list = (await call('GET', '/addresses', { token: me.accessToken })).body.items;
    expect(list).toHaveLength(20);
    expect(list.filter((a: { isDefault: boolean }) => a.isDefault)).toHaveLength(1);
    expect((await save(me, { label: 'OTHER', address: 'x', location: at })).status).toBe(400);
    expect((await save(me, { label: 'SCHOOL', address: '1 Lê Duẩn', location: at })).status).toBe(400);
    expect((await save(me, { label: 'OTHER', address: '1 Lê Duẩn', location: { lat: 'abc', lng: 106 } })).status).toBe(400);
    expect((await save(me, { label: 'OTHER', address: '1 Lê Duẩn', location: at, contactPhone: '0912' })).status).toBe(400);
    const driver = await onlineDriver(area().near(0));
    expect((await call('GET', '/addresses', { token: driver.accessToken })).body.code).toBe('HAT_LOCKED');
  });
});

describe('favorites', () => {
  it('saves existing active records of each type once, lists them by type with their current look, removes idempotently', async () => {
    const [admin, me] = await Promise.all([adminTokens(), registerVerified()]);
    const here = area();
    const curated = async (path: string, body: Record<string, unknown>) =>
      (await call('POST', path, { token: admin.accessToken, body: { location: here.near(0), ...body } })).body.id as string;
    const place = await curated('/places', { name: 'Chợ Bến Thành', category: 'MARKET' });
    const atm = await curated('/atm', { name: 'ATM VCB Lê Lợi', bank: 'VCB' });
    const put = (type: string, id: string) => call('PUT', `/favorites/${type}/${id}`, { token: me.accessToken });

    const first = await put('PLACE', place);
    expect([first.status, first.body.created]).toEqual([201, true]);
    expect(first.body.favorite.target).toMatchObject({ id: place, name: 'Chợ Bến Thành' });
    const again = await put('PLACE', place);
    expect([again.status, again.body.created]).toEqual([200, false]);
    expect((await put('ATM', atm)).status).toBe(201);
    expect((await put('ATM', place)).status).toBe(404); // a place id is not an ATM
    expect((await put('PLACE', randomUUID())).status).toBe(404);
    expect((await put('HOTEL', place)).status).toBe(404); // not a type (yet)
    expect((await call('GET', `/favorites/PLACE/${place}`, { token: me.accessToken })).body.saved).toBe(true);

    const all = (await call('GET', '/favorites', { token: me.accessToken })).body.items;
    expect(all.map((f: { type: string; targetId: string }) => `${f.type}:${f.targetId}`)).toEqual([`ATM:${atm}`, `PLACE:${place}`]);
    expect((await call('GET', '/favorites?type=ATM', { token: me.accessToken })).body.items.map((f: { targetId: string }) => f.targetId)).toEqual([atm]);
    expect((await call('GET', '/favorites?type=SPA', { token: me.accessToken })).status).toBe(400);

    // A hidden record stays in the list without its details.
    await call('POST', `/places/admin/${place}/hide`, { token: admin.accessToken, body: { reason: 'Đóng cửa' } });
    const afterHide = (await call('GET', '/favorites?type=PLACE', { token: me.accessToken })).body.items;
    expect(afterHide).toEqual([expect.objectContaining({ targetId: place, target: null })]);

    expect((await call('DELETE', `/favorites/ATM/${atm}`, { token: me.accessToken })).status).toBe(200);
    expect((await call('DELETE', `/favorites/ATM/${atm}`, { token: me.accessToken })).status).toBe(200);
    expect((await call('GET', `/favorites/ATM/${atm}`, { token: me.accessToken })).body).toEqual({ saved: false, createdAt: null });
    const other = await registerVerified();
    expect((await call('GET', '/favorites', { token: other.accessToken })).body.items).toEqual([]);
  });
});
