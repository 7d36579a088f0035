import { db } from '../../../src/platform/core/firebase/firebase';
import { adminTokens, registerVerified, type Tokens } from '../../helpers/accounts';
import { narrowedAdmin } from '../../helpers/admins';
import { call } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { area } from '../../helpers/geo';
import { activePartner, type PartnerOwner } from '../../helpers/partners';
import { waitFor } from '../../helpers/wait';
import { REVIEW_HIDES } from '../../../src/modules/reviews/reviews.model';

beforeAll(requireEmulators);

let admin: Tokens;
let owner: PartnerOwner;
let none: Tokens;
let moderator: Tokens;
let curator: Tokens;
beforeAll(async () => {
  admin = await adminTokens();
  owner = await activePartner('Bánh mì Phượng', admin);
  [none, moderator, curator] = [await narrowedAdmin([]), await narrowedAdmin(['moderation']), await narrowedAdmin(['catalog.manage'])];
});
afterAll(async () => {
  for (const helper of [none, moderator, curator])
    await call('PATCH', `/users/admin/${helper.user.id}/roles`, { token: admin.accessToken, body: { roles: ['USER'] } });
});

// `partnerId` null: a record curated by the administrators (the platform's own).
async function newPlace(by: Tokens = owner, partnerId: string | null = owner.partnerId): Promise<string> {
  const created = await call('POST', '/places', {
    token: by.accessToken,
    body: { ...(partnerId ? { partnerId } : {}), name: 'Bánh mì', category: 'CAFE', location: area().near(0) },
  });
  expect(created.status).toBe(201);
  return created.body.id as string;
}
const review = (who: Tokens, targetId: string, body: Record<string, unknown>) =>
  call('POST', '/reviews', { token: who.accessToken, body: { targetType: 'PLACE', targetId, ...body } });
const report = (who: Tokens, id: string) => call('POST', `/reviews/${id}/report`, { token: who.accessToken, body: { reason: 'OFFENSIVE' } });
const hideVia = async (reviewId: string) => {
  const queue = await call('GET', '/reviews/admin/reports?limit=100', { token: moderator.accessToken });
  const open = queue.body.items.find((r: { reviewId: string }) => r.reviewId === reviewId);
  return call('POST', `/reviews/admin/reports/${open.id}/resolve`, { token: moderator.accessToken, body: { action: 'HIDE_REVIEW' } });
};
const visibleAuthors = async (placeId: string, who: Tokens) =>
  (await call('GET', `/reviews?targetType=PLACE&targetId=${placeId}`, { token: who.accessToken })).body.items
    .map((r: { author: { id: string } }) => r.author.id)
    .sort();
const settlesAt = (placeId: string, expected: { average: number; count: number }) =>
  waitFor(async () => {
    const now = (await call('GET', `/places/${placeId}`, { token: admin.accessToken })).body.rating;
    return now.average === expected.average && now.count === expected.count ? now : undefined;
  });

describe('a hidden review stays hidden', () => {
  it('deleting it and posting again: the new review of that author on that record is created HIDDEN (not listed, not counted)', async () => {
    const place = await newPlace();
    const [author, other, reporter] = [await registerVerified(), await registerVerified(), await registerVerified()];
    const first = (await review(author, place, { stars: 1, text: 'Tệ' })).body;
    await review(other, place, { stars: 5 });
    await report(reporter, first.id);
    expect((await hideVia(first.id)).body).toEqual({ resolved: 1, reviewStatus: 'HIDDEN' });
    expect((await call('DELETE', `/reviews/${first.id}`, { token: author.accessToken })).status).toBe(200);

    const again = await review(author, place, { stars: 1, text: 'Vẫn tệ' });
    expect([again.status, again.body.status]).toEqual([201, 'HIDDEN']);
    expect((await call('GET', `/reviews/${again.body.id}`, { token: reporter.accessToken })).status).toBe(404);
    expect((await call('GET', '/reviews/mine', { token: author.accessToken })).body.items.map((r: { status: string }) => r.status)).toEqual(['HIDDEN']);
    expect(await visibleAuthors(place, reporter)).toEqual([other.user.id]);
    await settlesAt(place, { average: 5, count: 1 });
    // Editing does not bring it back either.
    expect((await call('PATCH', `/reviews/${again.body.id}`, { token: author.accessToken, body: { stars: 5 } })).body.status).toBe('HIDDEN');

    // The hide belongs to this author on this record only.
    const elsewhere = await review(author, await newPlace(), { stars: 3 });
    expect(elsewhere.body.status).toBe('VISIBLE');
    expect((await review(reporter, place, { stars: 4 })).body.status).toBe('VISIBLE');
  });

  it('also when the author deletes it before the moderator acts', async () => {
    const place = await newPlace();
    const [author, reporter] = [await registerVerified(), await registerVerified()];
    const first = (await review(author, place, { stars: 1 })).body;
    await report(reporter, first.id);
    await call('DELETE', `/reviews/${first.id}`, { token: author.accessToken });
    expect((await hideVia(first.id)).body).toEqual({ resolved: 1, reviewStatus: null });
    expect((await review(author, place, { stars: 2 })).body.status).toBe('HIDDEN');
    expect((await db().collection(REVIEW_HIDES).doc(first.id).get()).data()).toMatchObject({ hiddenBy: moderator.user.id });
  });
});

describe('review moderation needs its permission', () => {
  it('the report queue and its resolution: 403 for an admin holding [], allowed with moderation; hidden reviews only to moderators', async () => {
    const place = await newPlace();
    const [author, reporter] = [await registerVerified(), await registerVerified()];
    const r = (await review(author, place, { stars: 2 })).body;
    await report(reporter, r.id);
    const queued = (await call('GET', '/reviews/admin/reports?limit=100', { token: moderator.accessToken })).body.items.find(
      (x: { reviewId: string }) => x.reviewId === r.id,
    );
    for (const [method, path, body] of [
      ['GET', '/reviews/admin/reports', undefined],
      ['POST', `/reviews/admin/reports/${queued.id}/resolve`, { action: 'HIDE_REVIEW' }],
    ] as const) {
      const refused = await call(method, path, { token: none.accessToken, body });
      expect([refused.status, refused.body.code]).toEqual([403, 'PERMISSION_REQUIRED']);
    }
    expect((await call('GET', `/reviews/${r.id}`, { token: none.accessToken })).body.status).toBe('VISIBLE');
    await hideVia(r.id);
    expect((await call('GET', `/reviews/${r.id}`, { token: none.accessToken })).status).toBe(404);
    expect((await call('GET', `/reviews/${r.id}`, { token: moderator.accessToken })).body.status).toBe('HIDDEN');
  });

  it('an administrator replies (the platform’s own records) only with catalog.manage', async () => {
    const place = await newPlace(admin, null);
    const author = await registerVerified();
    const r = (await review(author, place, { stars: 4 })).body;
    for (const narrowed of [none, moderator]) {
      const refused = await call('POST', `/reviews/${r.id}/reply`, { token: narrowed.accessToken, body: { text: 'Cảm ơn' } });
      expect([refused.status, refused.body.code]).toEqual([403, 'PERMISSION_REQUIRED']);
    }
    const replied = await call('POST', `/reviews/${r.id}/reply`, { token: curator.accessToken, body: { text: 'Cảm ơn bạn' } });
    expect([replied.status, replied.body.reply?.text]).toEqual([200, 'Cảm ơn bạn']);
    // The partner path is unchanged: partners hold no permission list.
    const partnerReview = (await review(author, await newPlace(), { stars: 5 })).body;
    expect((await call('POST', `/reviews/${partnerReview.id}/reply`, { token: owner.accessToken, body: { text: 'Hẹn gặp lại' } })).status).toBe(200);
  });
});

describe('one rule for repeats', () => {
  it('two identical reports at once make one (201 and 200); DISMISS closes one report and leaves the review; again: resolved 0; HIDE_REVIEW after it: 409', async () => {
    const place = await newPlace();
    const [author, reporter, second] = [await registerVerified(), await registerVerified(), await registerVerified()];
    const r = (await review(author, place, { stars: 2 })).body;
    const raced = await Promise.all([report(reporter, r.id), report(reporter, r.id)]);
    expect(raced.map((x) => x.status).sort()).toEqual([200, 201]);
    await report(second, r.id);
    const queued = (await call('GET', '/reviews/admin/reports?limit=100', { token: moderator.accessToken })).body.items.filter(
      (x: { reviewId: string }) => x.reviewId === r.id,
    );
    expect(queued.map((x: { reportedBy: string }) => x.reportedBy).sort()).toEqual([reporter.user.id, second.user.id].sort());

    const dismiss = () => call('POST', `/reviews/admin/reports/${queued[0].id}/resolve`, { token: moderator.accessToken, body: { action: 'DISMISS' } });
    expect((await dismiss()).body).toEqual({ resolved: 1, reviewStatus: 'VISIBLE' });
    expect((await dismiss()).body).toEqual({ resolved: 0, reviewStatus: 'VISIBLE' });
    const hide = await call('POST', `/reviews/admin/reports/${queued[0].id}/resolve`, { token: moderator.accessToken, body: { action: 'HIDE_REVIEW' } });
    expect([hide.status, hide.body.code]).toEqual([409, 'REVIEW_REPORT_RESOLVED']);
    // The other report is still open; resolving it hides the review.
    expect(
      (await call('POST', `/reviews/admin/reports/${queued[1].id}/resolve`, { token: moderator.accessToken, body: { action: 'HIDE_REVIEW' } })).body,
    ).toEqual({ resolved: 1, reviewStatus: 'HIDDEN' });
    const resolved = (await call('GET', '/reviews/admin/reports?status=RESOLVED&limit=100', { token: moderator.accessToken })).body.items.filter(
      (x: { reviewId: string }) => x.reviewId === r.id,
    );
    expect(resolved.map((x: { resolution: string }) => x.resolution).sort()).toEqual(['DISMISS', 'HIDE_REVIEW']);
  });
});

describe('review limits', () => {
  it('reports are limited per user (scope review-report, 20 an hour): the 21st is 429 with Retry-After; another user is not affected', async () => {
    const place = await newPlace();
    const [author, reporter, second] = [await registerVerified(), await registerVerified(), await registerVerified()];
    const r = (await review(author, place, { stars: 3 })).body;
    const statuses: number[] = [];
    for (let i = 0; i < 20; i += 1) statuses.push((await report(reporter, r.id)).status);
    // Repeats answer 200 (the moderation kit's one rule for repeats) and still count toward the limit.
    expect(statuses).toEqual([201, ...Array(19).fill(200)]);
    const limited = await report(reporter, r.id);
    expect([limited.status, limited.body.code]).toEqual([429, 'RATE_LIMITED']);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await report(second, r.id)).status).toBe(201);
  });
});
