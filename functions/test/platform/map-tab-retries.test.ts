import { randomUUID } from 'node:crypto';
import { registerVerified, type Tokens } from '../helpers/accounts';
import { call } from '../helpers/api';
import { requireEmulators } from '../helpers/emulators';
import { area } from '../helpers/geo';
import { partnerCast, type PartnerOwner } from '../helpers/partners';
import { seedRide } from '../helpers/payables';

beforeAll(requireEmulators);

// The map tab under retries and races: a creation sent again with its Idempotency-Key is the same creation, two
// requests at once leave one consistent result, and changes racing each other on one record both stay.

let admin: Tokens, owner: PartnerOwner, rival: PartnerOwner, user: Tokens;
beforeAll(async () => {
  ({ admin, owner, rival, user } = await partnerCast('Quán Lặp', 'Quán Đua'));
});

const post = (who: Tokens, path: string, body: Record<string, unknown>, key = randomUUID()) =>
  call('POST', path, { token: who.accessToken, body, headers: { 'idempotency-key': key } });

describe('retried creations', () => {
  it('a place, an address, a review and a voucher sent twice with one key are created once', async () => {
    const here = area();
    const placeBody = { partnerId: owner.partnerId, name: 'Quán Thử Lại', category: 'CAFE', location: here.near(0) };
    const key = randomUUID();
    const [a, b] = [await post(owner, '/places', placeBody, key), await post(owner, '/places', placeBody, key)];
    expect(b.body.id).toBe(a.body.id);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    const near = await call('GET', `/places/nearby?lat=${here.lat}&lng=${here.lng}&radiusM=50`, { token: user.accessToken });
    expect(near.body.items.map((p: { id: string }) => p.id)).toEqual([a.body.id]);

    const me = await registerVerified();
    const addressKey = randomUUID();
    const addressBody = { label: 'HOME', address: '1 Lê Lợi', location: here.near(0) };
    expect((await post(me, '/addresses', addressBody, addressKey)).body.id).toBe((await post(me, '/addresses', addressBody, addressKey)).body.id);
    expect((await call('GET', '/addresses', { token: me.accessToken })).body.items).toHaveLength(1);

    const reviewKey = randomUUID();
    const reviewBody = { targetType: 'PLACE', targetId: a.body.id, stars: 4 };
    const first = await post(me, '/reviews', reviewBody, reviewKey);
    const again = await post(me, '/reviews', reviewBody, reviewKey);
    expect([first.status, again.status, again.body.id]).toEqual([201, 201, first.body.id]);

    const code = `R${randomUUID().replace(/-/g, '').slice(0, 10)}`;
    const voucherKey = randomUUID();
    const voucher = {
      code,
      title: 'Thử lại',
      kind: 'FIXED',
      value: 10_000,
      startsAt: new Date(Date.now() - 60_000).toISOString(),
      endsAt: new Date(Date.now() + 86_400_000).toISOString(),
      totalLimit: 5,
      verticals: ['RIDE'],
    };
    expect((await post(admin, '/promotions/manage', voucher, voucherKey)).body.id).toBe((await post(admin, '/promotions/manage', voucher, voucherKey)).body.id);
    const redeemKey = randomUUID();
    const redeemBody = { code, payable: { kind: 'RIDE', id: await seedRide(me.user.id, { quote: 50_000 }) } };
    const used = await post(me, '/promotions/redeem', redeemBody, redeemKey);
    expect((await post(me, '/promotions/redeem', redeemBody, redeemKey)).body.id).toBe(used.body.id);
    expect(
      (await call('GET', `/promotions/manage/${(await post(admin, '/promotions/manage', voucher, voucherKey)).body.id}`, { token: admin.accessToken })).body
        .stats,
    ).toEqual({ redeemed: 1, remaining: 4 });
  });
});

describe('races', () => {
  it('the same favorite saved twice at once: one created, one found; the same user reviewing twice at once: one review', async () => {
    const place = (await post(admin, '/places', { name: 'Hồ Con Rùa', category: 'ATTRACTION', location: area().near(0) })).body.id;
    const me = await registerVerified();
    const saves = await Promise.all([0, 1].map(() => call('PUT', `/favorites/PLACE/${place}`, { token: me.accessToken })));
    expect(saves.map((s) => s.body.created).sort()).toEqual([false, true]);
    expect((await call('GET', '/favorites', { token: me.accessToken })).body.items).toHaveLength(1);
    const reviews = await Promise.all([5, 1].map((stars) => post(me, '/reviews', { targetType: 'PLACE', targetId: place, stars })));
    expect(reviews.map((r) => r.status).sort()).toEqual([201, 409]);
    expect((await call('GET', '/reviews/mine', { token: me.accessToken })).body.items).toHaveLength(1);
  });

  it('an edit and a live-space report racing on one lot both stay (each writes only its own fields)', async () => {
    const lot = (
      await post(owner, '/parking/lots', {
        partnerId: owner.partnerId,
        name: 'Bãi Đua',
        location: area().near(0),
        capacity: 20,
        freeSpaces: 10,
        pricesPerHour: { MOTORBIKE: 5_000 },
      })
    ).body.id;
    const [edited, reported] = await Promise.all([
      call('PATCH', `/parking/lots/${lot}`, { token: owner.accessToken, body: { name: 'Bãi Đua Mới', pricesPerHour: { MOTORBIKE: 6_000 } } }),
      call('PUT', `/parking/lots/${lot}/availability`, { token: owner.accessToken, body: { delta: -3 } }),
    ]);
    expect([edited.status, reported.status]).toEqual([200, 200]);
    expect((await call('GET', `/parking/lots/${lot}`, { token: user.accessToken })).body).toMatchObject({
      name: 'Bãi Đua Mới',
      pricesPerHour: { MOTORBIKE: 6_000 },
      freeSpaces: 7,
    });
    // Another partner's id in the body or the path changes nothing.
    expect((await call('PUT', `/parking/lots/${lot}/availability`, { token: rival.accessToken, body: { delta: -1 } })).status).toBe(403);
    expect((await call('GET', `/parking/lots/${lot}`, { token: user.accessToken })).body.freeSpaces).toBe(7);
  });
});
