import { randomUUID } from 'node:crypto';
import type { Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { area } from '../../helpers/geo';
import { partnerCast, type PartnerOwner } from '../../helpers/partners';

// The catalog kit's operations as each booking vertical serves them (places.test.ts covers the kit's behaviour in
// depth): a partner's record found by name, listed as theirs, its children listed, hidden by an administrator
// (out of sight for users, in the moderation queue), restored, and its history read by its partner only.
beforeAll(requireEmulators);
jest.setTimeout(90_000);

let admin: Tokens, owner: PartnerOwner, rival: PartnerOwner, user: Tokens;
beforeAll(async () => {
  ({ admin, owner, rival, user } = await partnerCast('Đối tác Đặt chỗ', 'Đối tác Khác'));
});

// base path, where the partner manages it, the children's segment and one child, the vertical's own fields.
const VERTICALS: Array<[string, string, string, [string, Record<string, unknown>], Record<string, unknown>]> = [
  [
    '/hotels',
    '/hotels',
    'rooms',
    ['std', { name: 'Standard', rooms: 3, maxGuests: 2, beds: [{ type: 'DOUBLE', count: 1 }], rates: { weekdayVnd: 500_000 } }],
    { city: 'DA_NANG', stars: 3 },
  ],
  [
    '/rentals/listings',
    '/rentals/partner/listings',
    '',
    ['', {}],
    { kind: 'ROOM', monthlyRentVnd: 3_000_000, depositVnd: 3_000_000, areaM2: 20, bedrooms: 0, bathrooms: 1 },
  ],
  [
    '/medical/clinics',
    '/medical/clinics',
    'doctors',
    ['bs_a', { name: 'BS. An', specialty: 'GENERAL', feeVnd: 150_000, appointmentMinutes: 15 }],
    { specialties: ['GENERAL'] },
  ],
  [
    '/schools',
    '/schools',
    'programs',
    ['ct_1', { name: 'Lớp 1', level: 'PRIMARY', ageFrom: 6, ageTo: 7, language: 'vi', tuitionVndPerMonth: 2_000_000 }],
    { levels: ['PRIMARY'], curriculum: 'NATIONAL' },
  ],
  [
    '/home-services/providers',
    '/home-services/providers',
    'services',
    ['dv_1', { name: 'Dọn nhà', category: 'CLEANING', pricePerHourVnd: 90_000, minHours: 2, maxHours: 4 }],
    { categories: ['CLEANING'], coverageRadiusM: 5_000 },
  ],
];

describe.each(VERTICALS)('%s', (base, manage, segment, [childKey, child], fields) => {
  it('searched by name, listed as the partner’s, its children listed; hidden, queued, restored; its history the partner’s', async () => {
    const here = area();
    const tag = `zq${randomUUID().slice(0, 6)}`;
    const made = await call('POST', manage, {
      token: owner.accessToken,
      headers: { 'idempotency-key': randomUUID() },
      body: { partnerId: owner.partnerId, name: `Cơ sở ${tag}`, location: here.near(0), ...fields },
    });
    expect(made.status).toBe(201);
    const id = made.body.id as string;
    const found = await call('GET', `${base}/search?q=${tag}&lat=${here.lat}&lng=${here.lng}`, { token: user.accessToken });
    expect(found.body.items.map((r: { id: string }) => r.id)).toEqual([id]);
    const mine = await call('GET', `${manage}/mine?partnerId=${owner.partnerId}&limit=50`, { token: owner.accessToken });
    expect(mine.body.items.map((r: { id: string }) => r.id)).toContain(id);
    expect((await call('GET', `${manage}/mine?partnerId=${owner.partnerId}`, { token: rival.accessToken })).status).toBe(403);
    if (segment) {
      expect((await call('PUT', `${base}/${id}/${segment}/${childKey}`, { token: owner.accessToken, body: child })).status).toBe(200);
      const children = await call('GET', `${base}/${id}/${segment}`, { token: user.accessToken });
      expect(children.body.items).toHaveLength(1);
    }

    const hidden = await call('POST', `${base}/admin/${id}/hide`, { token: admin.accessToken, body: { reason: 'Thông tin sai' } });
    expect(hidden.body).toMatchObject({ status: 'HIDDEN', statusReason: 'Thông tin sai' });
    expect((await call('POST', `${base}/admin/${id}/hide`, { token: owner.accessToken, body: { reason: 'x' } })).status).toBe(403);
    expect((await call('GET', `${base}/${id}`, { token: user.accessToken })).status).toBe(404);
    expect((await call('GET', `${base}/search?q=${tag}&lat=${here.lat}&lng=${here.lng}`, { token: user.accessToken })).body.items).toEqual([]);
    const queue = await call('GET', `${base}/admin?status=HIDDEN&partnerId=${owner.partnerId}`, { token: admin.accessToken });
    expect(queue.body.items.map((r: { id: string }) => r.id)).toContain(id);
    expect((await call('GET', `${base}/admin`, { token: user.accessToken })).status).toBe(403);
    expect((await call('POST', `${base}/admin/${id}/restore`, { token: admin.accessToken })).body).toMatchObject({ status: 'ACTIVE', statusReason: null });
    expect((await call('GET', `${base}/${id}`, { token: user.accessToken })).status).toBe(200);

    const events = await call('GET', `${base}/${id}/events`, { token: owner.accessToken });
    expect(events.body.events.map((e: { action: string; to: string }) => `${e.action}:${e.to}`)).toEqual(['restore:ACTIVE', 'hide:HIDDEN']);
    // A landlord's listings are hidden from other partners altogether (404); the other catalogs refuse them (403).
    expect((await call('GET', `${base}/${id}/events`, { token: rival.accessToken })).status).toBe(base === '/rentals/listings' ? 404 : 403);
  });
});
