import { randomUUID } from 'node:crypto';
// The module list first, as the functions entry loads it: the handler reads the review targets from it.
import '../../../src/modules';
import { onReviewWritten } from '../../../src/modules/reviews/reviews.triggers';
import { db } from '../../../src/platform/core/firebase/firebase';
import type { DocumentEvent } from '../../../src/platform/core/module/module';
import { adminTokens, registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { area } from '../../helpers/geo';
import { activePartner, type PartnerOwner } from '../../helpers/partners';
import { waitFor } from '../../helpers/wait';
import { PLACES } from '../../../src/modules/places/places.collections';

beforeAll(requireEmulators);

let admin: Tokens;
let owner: PartnerOwner;
let rival: PartnerOwner;
beforeAll(async () => {
  admin = await adminTokens();
  [owner, rival] = await Promise.all([activePartner('Cà phê Một', admin), activePartner('Cà phê Hai', admin)]);
});

const newPlace = async () =>
  (
    await call('POST', '/places', {
      token: owner.accessToken,
      body: { partnerId: owner.partnerId, name: 'Cộng Cà Phê', category: 'CAFE', location: area().near(0) },
    })
  ).body.id as string;
const review = (who: Tokens, targetId: string, body: Record<string, unknown>) =>
  call('POST', '/reviews', { token: who.accessToken, body: { targetType: 'PLACE', targetId, ...body } });
const rating = async (placeId: string) => (await call('GET', `/places/${placeId}`, { token: admin.accessToken })).body.rating;
const settlesAt = (placeId: string, expected: { average: number; count: number }) =>
  waitFor(async () => {
    const now = await rating(placeId);
    return now.average === expected.average && now.count === expected.count ? now : undefined;
  });

describe('reviews', () => {
  it('the record’s average and count follow creation, edits, deletion and hiding (trigger)', async () => {
    const place = await newPlace();
    const [a, b, c] = await Promise.all([registerVerified({ name: 'Lan' }), registerVerified(), registerVerified()]);
    const first = await review(a, place, { stars: 5, text: 'Cà phê muối ngon' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ author: { id: a.user.id, name: 'Lan' }, stars: 5, verified: false, status: 'VISIBLE', reply: null });
    await review(b, place, { stars: 3 });
    await review(c, place, { stars: 4 });
    await settlesAt(place, { average: 4, count: 3 });
    await call('PATCH', `/reviews/${first.body.id}`, { token: a.accessToken, body: { stars: 2 } });
    await settlesAt(place, { average: 3, count: 3 });
    const bId = (await call('GET', `/reviews/mine`, { token: b.accessToken })).body.items[0].id;
    expect((await call('DELETE', `/reviews/${bId}`, { token: b.accessToken })).status).toBe(200);
    await settlesAt(place, { average: 3, count: 2 });
    const summary = await call('GET', `/reviews/summary?targetType=PLACE&targetId=${place}`, { token: b.accessToken });
    expect(summary.body).toEqual({ targetType: 'PLACE', targetId: place, average: 3, count: 2, histogram: { 1: 0, 2: 1, 3: 0, 4: 1, 5: 0 } });

    // Reported and hidden by a moderator: it leaves the list and the figures.
    const reported = await call('POST', `/reviews/${first.body.id}/report`, { token: c.accessToken, body: { reason: 'OFFENSIVE' } });
    expect(reported.status).toBe(201);
    // A repeat changes nothing and answers 200 (the moderation kit's one rule; it was 409 REVIEW_ALREADY_REPORTED).
    const again = await call('POST', `/reviews/${first.body.id}/report`, { token: c.accessToken, body: { reason: 'SPAM' } });
    expect([again.status, again.body]).toEqual([200, { reported: true }]);
    expect((await call('POST', `/reviews/${first.body.id}/report`, { token: a.accessToken, body: { reason: 'SPAM' } })).body.code).toBe('REVIEW_OWN');
    await call('POST', `/reviews/${first.body.id}/report`, { token: b.accessToken, body: { reason: 'FAKE', note: 'Không đúng' } });
    const queue = await call('GET', '/reviews/admin/reports?limit=100', { token: admin.accessToken });
    const mine = queue.body.items.filter((r: { reviewId: string }) => r.reviewId === first.body.id);
    expect(mine).toHaveLength(2);
    expect(mine[0].review).toMatchObject({ id: first.body.id, stars: 2 });
    const resolved = await call('POST', `/reviews/admin/reports/${mine[0].id}/resolve`, { token: admin.accessToken, body: { action: 'HIDE_REVIEW' } });
    expect(resolved.body).toEqual({ resolved: 2, reviewStatus: 'HIDDEN' });
    expect((await call('POST', `/reviews/admin/reports/${mine[1].id}/resolve`, { token: admin.accessToken, body: { action: 'DISMISS' } })).body.code).toBe(
      'REVIEW_REPORT_RESOLVED',
    );
    await settlesAt(place, { average: 4, count: 1 });
    expect((await call('GET', `/reviews/${first.body.id}`, { token: c.accessToken })).status).toBe(404);
    expect((await call('GET', `/reviews/${first.body.id}`, { token: a.accessToken })).body.status).toBe('HIDDEN');
    const listed = await call('GET', `/reviews?targetType=PLACE&targetId=${place}`, { token: c.accessToken });
    expect(listed.body.items.map((r: { author: { id: string } }) => r.author.id)).toEqual([c.user.id]);
  });

  it('a duplicated or late trigger delivery leaves the right figures', async () => {
    const place = await newPlace();
    const [a, b] = await Promise.all([registerVerified(), registerVerified()]);
    const ra = (await review(a, place, { stars: 5 })).body;
    await review(b, place, { stars: 1 });
    await settlesAt(place, { average: 3, count: 2 });
    const event = (): DocumentEvent => ({
      id: `evt-${randomUUID()}`,
      time: new Date().toISOString(),
      params: { reviewId: ra.id },
      before: undefined,
      after: { id: ra.id, data: { targetType: 'PLACE', targetId: place } },
    });
    const same = event();
    await onReviewWritten(same);
    await onReviewWritten(same);
    expect(await rating(place)).toEqual({ average: 3, count: 2 });
    // A computation older than the stored one is not written back.
    await db()
      .collection(PLACES)
      .doc(place)
      .update({ ratingAvg: 9, ratingCount: 9, ratingAsOf: Date.now() + 60_000 });
    expect(await onReviewWritten(event())).toMatchObject({ average: 3, count: 2, applied: false });
    expect(await rating(place)).toEqual({ average: 9, count: 9 });
    await db().collection(PLACES).doc(place).update({ ratingAsOf: 0 });
    expect(await onReviewWritten(event())).toMatchObject({ applied: true });
    expect(await rating(place)).toEqual({ average: 3, count: 2 });
  });

  it('once per user and record; authors edit their own; managers reply once; bad input', async () => {
    const place = await newPlace();
    const [a, b] = await Promise.all([registerVerified(), registerVerified()]);
    const mine = (await review(a, place, { stars: 4, text: 'Được' })).body;
    expect((await review(a, place, { stars: 5 })).body).toMatchObject({ code: 'REVIEW_EXISTS', details: { reviewId: mine.id } });
    expect((await review(owner, place, { stars: 5 })).body.code).toBe('REVIEW_OWN_TARGET');
    expect((await call('PATCH', `/reviews/${mine.id}`, { token: b.accessToken, body: { stars: 1 } })).body.code).toBe('REVIEW_NOT_AUTHOR');
    expect((await call('DELETE', `/reviews/${mine.id}`, { token: b.accessToken })).body.code).toBe('REVIEW_NOT_AUTHOR');
    const edited = await call('PATCH', `/reviews/${mine.id}`, { token: a.accessToken, body: { text: null } });
    expect(edited.body).toMatchObject({ text: null, stars: 4, editedAt: expect.any(String) });

    expect((await call('POST', `/reviews/${mine.id}/reply`, { token: rival.accessToken, body: { text: 'Ghé quán tôi' } })).body.code).toBe(
      'REVIEW_NOT_MANAGER',
    );
    const replied = await call('POST', `/reviews/${mine.id}/reply`, { token: owner.accessToken, body: { text: 'Cảm ơn bạn!' } });
    expect(replied.body.reply).toMatchObject({ text: 'Cảm ơn bạn!' });
    expect((await call('POST', `/reviews/${mine.id}/reply`, { token: owner.accessToken, body: { text: 'Lần hai' } })).body.code).toBe('REVIEW_ALREADY_REPLIED');

    for (const bad of [{ stars: 0 }, { stars: 6 }, { stars: 4.5 }, { stars: 3, targetType: 'SPA' }, { stars: 3, text: '' }]) {
      expect((await review(b, place, bad)).status).toBe(400);
    }
    expect((await review(b, randomUUID(), { stars: 3 })).status).toBe(404);
    expect((await call('GET', `/reviews?targetType=PLACE`, { token: b.accessToken })).status).toBe(400);
    expect((await call('GET', '/reviews/admin/reports', { token: b.accessToken })).status).toBe(403);
  });
});
