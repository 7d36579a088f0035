import { randomUUID } from 'node:crypto';
import { db } from '../../src/platform/core/firebase/firebase';
import { cellIndexOf } from '../../src/platform/kits/firestore/collections';
import { nearbyByCells, readCells, type CellDocument } from '../../src/platform/kits/geo/cell-index';
import { rebuildCellIndex } from '../../src/platform/kits/geo/cell-index.rebuild';
import { geohashOf } from '../../src/platform/kits/geo/geo';
import { PLACES } from '../../src/modules/places/places.collections';
import type { Tokens } from '../helpers/accounts';
import { call } from '../helpers/api';
import { requireEmulators } from '../helpers/emulators';
import { area } from '../helpers/geo';
import { partnerCast, type PartnerOwner } from '../helpers/partners';
import { placeDocument } from '../helpers/points';

beforeAll(requireEmulators);

// The geo kit's cell index on the emulator: the catalog's transactions keep it in step with each record's status and
// position (what `nearby` finds is what the index lists), and the deploy's rebuild adds records written before it.

let admin: Tokens, owner: PartnerOwner, user: Tokens;
beforeAll(async () => {
  ({ admin, owner, user } = await partnerCast('Quán Ô', 'Quán Kế'));
});

const leafOf = async (collection: string, geohash: string) =>
  (await db().collection(cellIndexOf(collection)).doc(geohash.slice(0, 6)).get()).data() as CellDocument | undefined;
// A record's counts, held in its cells of 4 and 5 characters (those of 3 characters span other tests' spots).
const countsAt = async (collection: string, geohash: string) =>
  Promise.all([4, 5].map(async (p) => ((await db().collection(cellIndexOf(collection)).doc(geohash.slice(0, p)).get()).get(`c.${geohash[p]}`) as number) ?? 0));
const nearbyIds = async (at: { lat: number; lng: number }) =>
  (await call('GET', `/places/nearby?lat=${at.lat}&lng=${at.lng}&radiusM=3000&limit=50`, { token: user.accessToken })).body.items.map(
    (p: { id: string }) => p.id,
  );

describe('the cell index beside a catalog', () => {
  it('follows a record through create, hide, restore, a move and archive: listed exactly while ACTIVE, counted once', async () => {
    const here = area();
    const from = here.near(200);
    // Bad input writes nothing, the index included.
    const refused = await call('POST', '/places', {
      token: owner.accessToken,
      body: { partnerId: owner.partnerId, name: 'Bún bò Ô', category: 'RESTAURANT', location: { lat: from.lat, lng: 181 } },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(refused.status).toBe(400);
    const g1 = geohashOf(from);
    const base = await countsAt(PLACES, g1);
    // Created twice with one key (a retry after a lost answer), racing: one record, counted once.
    const key = randomUUID();
    const create = () =>
      call('POST', '/places', {
        token: owner.accessToken,
        body: { partnerId: owner.partnerId, name: 'Bún bò Ô', category: 'RESTAURANT', location: from },
        headers: { 'idempotency-key': key },
      });
    const [made, again] = await Promise.all([create(), create()]);
    expect(made.status).toBe(201);
    // The racing twin is answered the same record, or told the first is still running (409): never a second one.
    if (again.status === 409) expect(again.body.code).toBe('IDEMPOTENCY_IN_PROGRESS');
    else expect(again.body.id).toBe(made.body.id);
    expect((await create()).body.id).toBe(made.body.id);
    const id = made.body.id as string;
    expect(await countsAt(PLACES, g1)).toEqual(base.map((n) => n + 1));
    expect((await leafOf(PLACES, g1))?.e?.[id]).toBe(g1);
    expect(await nearbyIds(here)).toEqual([id]);
    expect((await call('PATCH', `/places/${id}`, { token: owner.accessToken, body: { location: { lat: 91, lng: from.lng } } })).status).toBe(400);
    expect((await leafOf(PLACES, g1))?.e?.[id]).toBe(g1);

    expect((await call('POST', `/places/admin/${id}/hide`, { token: admin.accessToken, body: { reason: 'Sai địa chỉ' } })).status).toBe(200);
    expect((await leafOf(PLACES, g1))?.e?.[id]).toBeUndefined();
    expect(await countsAt(PLACES, g1)).toEqual(base);
    expect(await nearbyIds(here)).toEqual([]);
    // Two restores racing: one lists it again, the other is refused and writes nothing.
    const restores = await Promise.all([0, 1].map(() => call('POST', `/places/admin/${id}/restore`, { token: admin.accessToken })));
    expect(restores.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await countsAt(PLACES, g1)).toEqual(base.map((n) => n + 1));

    const to = here.near(2_000);
    const g2 = geohashOf(to);
    expect((await call('PATCH', `/places/${id}`, { token: owner.accessToken, body: { location: to } })).status).toBe(200);
    expect((await leafOf(PLACES, g1))?.e?.[id]).toBeUndefined();
    expect((await leafOf(PLACES, g2))?.e?.[id]).toBe(g2);
    const near = await call('GET', `/places/nearby?lat=${here.lat}&lng=${here.lng}&radiusM=3000`, { token: user.accessToken });
    expect(near.body.items).toEqual([expect.objectContaining({ id, distanceM: expect.closeTo(2_000, -2) })]);

    expect((await call('DELETE', `/places/${id}`, { token: owner.accessToken })).status).toBeLessThan(300);
    expect((await leafOf(PLACES, g2))?.e?.[id]).toBeUndefined();
    expect(await nearbyIds(here)).toEqual([]);
  });

  it('a record written before the index is never taken out of counts that do not hold it: hidden it changes nothing, restored it is listed', async () => {
    const here = area();
    const at = here.near(300);
    const g = geohashOf(at);
    const id = db().collection(PLACES).doc().id;
    await db().collection(PLACES).doc(id).set(placeDocument('Quán cũ', at));
    const counts = await countsAt(PLACES, g);
    expect((await call('POST', `/places/admin/${id}/hide`, { token: admin.accessToken, body: { reason: 'Quán đã đóng cửa' } })).status).toBe(200);
    expect(await countsAt(PLACES, g)).toEqual(counts);
    expect((await call('POST', `/places/admin/${id}/restore`, { token: admin.accessToken })).status).toBe(200);
    expect(await countsAt(PLACES, g)).toEqual(counts.map((n) => n + 1));
    expect(await nearbyIds(here)).toEqual([id]);
  });

  it('records written before the index are added by the rebuild, once however often it runs; one no longer ACTIVE is taken out', async () => {
    const collection = `test_cells_${randomUUID().slice(0, 8)}`;
    const here = area();
    const points = Array.from({ length: 30 }, (_, i) => ({ id: `r${String(i).padStart(2, '0')}`, ...here.near(100 * i + 50) }));
    const batch = db().batch();
    for (const p of points)
      batch.set(db().collection(collection).doc(p.id), { lat: p.lat, lng: p.lng, geohash: geohashOf(p), status: p.id === 'r05' ? 'HIDDEN' : 'ACTIVE' });
    await batch.commit();
    const read = (limit: number) =>
      nearbyByCells({
        center: here,
        radiusM: 5_000,
        limit,
        budget: 400,
        readCells: (hashes) => readCells(collection, hashes),
        readRecords: async (ids) =>
          (await db().getAll(...ids.map((id) => db().collection(collection).doc(id)))).map((s) => (s.exists ? { id: s.id, ...s.data() } : undefined)),
        keep: (r) => (r as { status?: string }).status === 'ACTIVE',
      });
    expect((await read(50)).items).toEqual([]);

    const fixedBy = async () => (await rebuildCellIndex(collection)).map((p) => p.fixed);
    expect(await fixedBy()).toEqual([0, 29]);
    expect(await fixedBy()).toEqual([0, 0]);
    const expected = points.filter((p) => p.id !== 'r05').map((p) => p.id);
    expect((await read(50)).items.map((f) => f.item.id)).toEqual(expected);

    // Behind the index's back, r07 is hidden and r08 moves 4 km away: the next run takes both entries out and lists
    // r08 where it is; the counts follow, and the page serves r08 once, at its new place.
    const g7 = geohashOf(points[7]);
    const counted = await countsAt(collection, g7);
    const far = here.near(4_000);
    await db().collection(collection).doc('r07').update({ status: 'HIDDEN' });
    await db()
      .collection(collection)
      .doc('r08')
      .update({ ...far, geohash: geohashOf(far) });
    const stale = await read(50);
    expect(stale.items.map((f) => f.item.id)).toEqual(expected.filter((id) => id !== 'r07' && id !== 'r08'));
    expect(await fixedBy()).toEqual([2, 1]);
    expect((await leafOf(collection, g7))?.e?.r07).toBeUndefined();
    expect((await leafOf(collection, geohashOf(far)))?.e?.r08).toBe(geohashOf(far));
    const inCell = (g: string, n: number) => (g.slice(0, n) === g7.slice(0, n) ? 1 : 0);
    expect(await countsAt(collection, g7)).toEqual(counted.map((n, i) => n - 1 - inCell(geohashOf(points[8]), 5 + i) + inCell(geohashOf(far), 5 + i)));
    const page = await read(50);
    expect(page.items.map((f) => f.item.id)).toEqual([...expected.filter((id) => id !== 'r07' && id !== 'r08'), 'r08']);
    expect(page.items.at(-1)?.distanceM).toBeCloseTo(4_000, -2);
    expect(await fixedBy()).toEqual([0, 0]);
  });
});
