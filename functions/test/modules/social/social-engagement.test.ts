import { randomUUID } from 'node:crypto';
import { FieldValue } from 'firebase-admin/firestore';
import { adminTokens, registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { inboxOf } from '../../helpers/notifications';
import { waitFor } from '../../helpers/wait';
import { db } from '../../../src/platform/core/firebase/firebase';
import { mp4, png } from '../../helpers/images';
import { FEED_ITEMS, SOCIAL_FEEDS, SOCIAL_POSTS } from '../../../src/modules/social/social.collections';
import { onPostCountsRollup } from '../../../src/modules/social/social.counts';
import { onLikeCreated } from '../../../src/modules/social/social.notices';

// The social tab's engagement through the API (in-process, on the emulators; notices come from triggers in the
// Functions emulator): comments and replies, saves, shares, views, likers, hashtag pages, aggregated notices and
// moderation (reports, hide, restore).
beforeAll(requireEmulators);

type Person = Tokens;
const key = () => ({ 'idempotency-key': randomUUID() });
const post = async (who: Person, body: Record<string, unknown>) =>
  (await call('POST', '/social/posts', { token: who.accessToken, body, headers: key() })).body as { id: string };
const comment = (who: Person, postId: string, body: Record<string, unknown>, headers: Record<string, string> = key()) =>
  call('POST', `/social/posts/${postId}/comments`, { token: who.accessToken, body, headers });
const counts = async (who: Person, postId: string) => (await call('GET', `/social/posts/${postId}`, { token: who.accessToken })).body.counts;
const follow = (who: Person, whom: Person) => call('POST', `/social/users/${whom.user.id}/follow`, { token: who.accessToken });
const ids = (page: { body: { items: Array<{ id: string }> } }) => page.body.items.map((i) => i.id);
const handleOf = async (who: Person) => {
  const handle = `u_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  expect((await call('PUT', '/social/profile', { token: who.accessToken, body: { handle } })).status).toBe(200);
  return handle;
};
/** The person's inbox items of one kind about one entity, once the trigger has written them. */
const noticeOf = (who: Person, kind: string, entityId: string, until: (item: FirebaseFirestore.DocumentData) => boolean = () => true) =>
  waitFor(
    async () => {
      const [item] = await inboxOf(who.user.id, { kind, entityId });
      return item && until(item) ? item : undefined;
    },
    { what: `${kind} about ${entityId}` },
  );

describe('comments', () => {
  it('comments and one level of replies, counted on the post; a thread leaves with its comment', async () => {
    const [author, lan, minh] = await Promise.all([
      registerVerified({ name: 'Author' }),
      registerVerified({ name: 'Lan' }),
      registerVerified({ name: 'Minh' }),
    ]);
    const { id: postId } = await post(author, { text: 'Bún chả hay phở?' });
    const top = await comment(lan, postId, { text: 'Phở! <b>chắc chắn</b>' });
    expect(top.status).toBe(201);
    expect(top.body).toMatchObject({ postId, parentId: null, author: { id: lan.user.id, name: 'Lan' }, text: 'Phở! <b>chắc chắn</b>', replies: 0 });
    const reply = (await comment(minh, postId, { text: 'Bún chả', parentId: top.body.id })).body;
    // A reply to a reply joins the thread (one level).
    const nested = (await comment(author, postId, { text: 'Cả hai', parentId: reply.id })).body;
    expect([reply.parentId, nested.parentId]).toEqual([top.body.id, top.body.id]);
    const other = (await comment(minh, postId, { text: 'Cơm tấm' })).body;
    expect(await counts(author, postId)).toMatchObject({ comments: 4 });

    const list = await call('GET', `/social/posts/${postId}/comments`, { token: minh.accessToken });
    expect(list.body.items.map((c: { id: string; replies: number }) => [c.id, c.replies])).toEqual([
      [other.id, 0],
      [top.body.id, 2],
    ]);
    expect(ids(await call('GET', `/social/comments/${top.body.id}/replies`, { token: lan.accessToken }))).toEqual([reply.id, nested.id]);
    expect((await call('GET', `/social/comments/${reply.id}/replies`, { token: lan.accessToken })).body.code).toBe('SOCIAL_NOT_A_THREAD');

    // Only its author edits; its author or the post's author deletes; others 403, nothing changed.
    expect((await call('PATCH', `/social/comments/${top.body.id}`, { token: minh.accessToken, body: { text: 'x' } })).body.code).toBe('SOCIAL_NOT_AUTHOR');
    expect((await call('PATCH', `/social/comments/${top.body.id}`, { token: lan.accessToken, body: { text: 'Phở bò' } })).body.text).toBe('Phở bò');
    expect((await call('DELETE', `/social/comments/${top.body.id}`, { token: minh.accessToken })).status).toBe(403);
    expect((await call('DELETE', `/social/comments/${reply.id}`, { token: minh.accessToken })).status).toBe(200);
    expect(await counts(author, postId)).toMatchObject({ comments: 3 });
    // The post's author deletes Lan's comment: its thread (one reply left) leaves the count with it.
    expect((await call('DELETE', `/social/comments/${top.body.id}`, { token: author.accessToken })).status).toBe(200);
    expect(await counts(author, postId)).toMatchObject({ comments: 1 });
    expect((await call('GET', `/social/comments/${nested.id}/replies`, { token: lan.accessToken })).status).toBe(404);
    expect((await comment(lan, postId, { text: 'late', parentId: top.body.id })).status).toBe(404);
    // Deleting the orphaned reply afterwards takes nothing more away.
    expect((await call('DELETE', `/social/comments/${nested.id}`, { token: author.accessToken })).status).toBe(200);
    expect(await counts(author, postId)).toMatchObject({ comments: 1 });
  });

  it('refuses bad input, other posts’ threads and hidden posts; a retried comment is one comment', async () => {
    const [author, fan, stranger] = await Promise.all([registerVerified(), registerVerified(), registerVerified()]);
    await follow(fan, author);
    const { id: closed } = await post(author, { text: 'followers only', visibility: 'FOLLOWERS' });
    const { id: open } = await post(author, { text: 'public' });
    expect((await comment(stranger, closed, { text: 'hi' })).status).toBe(404);
    expect((await call('GET', `/social/posts/${closed}/comments`, { token: stranger.accessToken })).status).toBe(404);
    expect((await comment(fan, closed, { text: '😀'.repeat(1_001) })).status).toBe(400);
    expect((await comment(fan, closed, { text: '   ' })).status).toBe(400);
    const onClosed = (await comment(fan, closed, { text: 'mine' })).body;
    // A thread of another post is no parent here.
    expect((await comment(fan, open, { text: 'x', parentId: onClosed.id })).status).toBe(404);
    expect((await call('GET', `/social/comments/${onClosed.id}`, { token: stranger.accessToken })).status).toBe(404);

    // A retried comment, also one racing the first (409 while the first runs), is one comment.
    const headers = key();
    const tries = await Promise.all([1, 2, 3].map(() => comment(fan, open, { text: 'once' }, headers)));
    expect(tries.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    const retried = await comment(fan, open, { text: 'once' }, headers);
    expect(retried.status).toBe(201);
    expect(tries.filter((r) => r.status === 201).map((r) => r.body.id)).toEqual(tries.filter((r) => r.status === 201).map(() => retried.body.id));
    expect(await counts(author, open)).toMatchObject({ comments: 1 });
    expect((await comment(fan, open, { text: 'another' }, headers)).body.code).toBe('IDEMPOTENCY_KEY_REUSED');

    // Fifteen people comment at once: fifteen comments counted.
    const people = await Promise.all(Array.from({ length: 15 }, () => registerVerified()));
    await Promise.all(people.map((p) => comment(p, open, { text: 'cùng lúc' })));
    expect(await counts(author, open)).toMatchObject({ comments: 16 });
  });

  it('a block never keeps a comment on: the post’s author deletes a blocked person’s comment, and they their own', async () => {
    const [author, troll, other] = await Promise.all([registerVerified(), registerVerified(), registerVerified()]);
    const { id: postId } = await post(author, { text: 'mine' });
    const [rude, own] = [(await comment(troll, postId, { text: 'rude' })).body, (await comment(troll, postId, { text: 'mine too' })).body];
    const third = (await comment(other, postId, { text: 'hello' })).body;
    await call('POST', `/chat/blocks/${troll.user.id}`, { token: author.accessToken });
    expect((await call('GET', `/social/comments/${rude.id}`, { token: author.accessToken })).status).toBe(404);
    expect((await call('DELETE', `/social/comments/${rude.id}`, { token: author.accessToken })).status).toBe(200);
    expect((await call('DELETE', `/social/comments/${own.id}`, { token: troll.accessToken })).status).toBe(200);
    // Someone else's comment stays 403 where seen, 404 where not.
    expect((await call('DELETE', `/social/comments/${third.id}`, { token: troll.accessToken })).status).toBe(404);
    expect(await counts(author, postId)).toMatchObject({ comments: 1 });
  });

  it('a reply racing the deletion of its thread is either refused or taken away with it', async () => {
    const [author, lan] = await Promise.all([registerVerified(), registerVerified()]);
    const { id: postId } = await post(author, { text: 'race' });
    const top = (await comment(lan, postId, { text: 'top' })).body;
    const [replies, removed] = await Promise.all([
      Promise.all([1, 2, 3].map((i) => comment(author, postId, { text: `r${i}`, parentId: top.id }))),
      call('DELETE', `/social/comments/${top.id}`, { token: lan.accessToken }),
    ]);
    expect(removed.status).toBe(200);
    expect(replies.every((r) => r.status === 201 || r.status === 404)).toBe(true);
    expect(await counts(author, postId)).toMatchObject({ comments: 0 });
  });
});

describe('saves, shares, views, likers and hashtags', () => {
  it('saves privately, shares and views once per person, lists likers', async () => {
    const [author, lan, minh] = await Promise.all([
      registerVerified({ name: 'Author' }),
      registerVerified({ name: 'Lan' }),
      registerVerified({ name: 'Minh' }),
    ]);
    const { id: postId } = await post(author, { text: 'save me' });
    const { id: closed } = await post(author, { text: 'followers', visibility: 'FOLLOWERS' });
    for (let i = 0; i < 2; i++) expect((await call('POST', `/social/posts/${postId}/save`, { token: lan.accessToken })).body).toEqual({ postId, saved: true });
    expect(ids(await call('GET', '/social/saved', { token: lan.accessToken }))).toEqual([postId]);
    expect(ids(await call('GET', '/social/saved', { token: minh.accessToken }))).toEqual([]);
    expect((await call('POST', `/social/posts/${closed}/save`, { token: lan.accessToken })).status).toBe(404);

    const shares = await Promise.all([lan, lan, minh].map((p) => call('POST', `/social/posts/${postId}/share`, { token: p.accessToken })));
    expect(shares.map((s) => s.status)).toEqual([200, 200, 200]);
    expect(shares[2].body).toMatchObject({ shared: true, shareUrl: `app://social/posts/${postId}` });
    expect((await call('POST', `/social/posts/${closed}/share`, { token: author.accessToken })).status).toBe(200);
    await follow(lan, author);
    expect((await call('POST', `/social/posts/${closed}/share`, { token: lan.accessToken })).body.code).toBe('SOCIAL_NOT_SHAREABLE');

    const viewed = await call('POST', '/social/views', {
      token: minh.accessToken,
      body: { postIds: [postId, closed, postId, `nope${randomUUID().slice(0, 8)}`] },
    });
    expect(viewed.body).toEqual({ counted: [postId] });
    expect((await call('POST', '/social/views', { token: minh.accessToken, body: { postIds: [postId] } })).body).toEqual({ counted: [] });
    expect((await call('POST', '/social/views', { token: minh.accessToken, body: { postIds: [] } })).status).toBe(400);
    expect(await counts(author, postId)).toMatchObject({ shares: 2, views: 1 });

    await Promise.all([lan, minh].map((p) => call('POST', `/social/posts/${postId}/like`, { token: p.accessToken })));
    const likers = await call('GET', `/social/posts/${postId}/likes`, { token: author.accessToken });
    expect(likers.body.items.map((p: { userId: string }) => p.userId).sort()).toEqual([lan.user.id, minh.user.id].sort());
    // Minh blocks Lan: Lan no longer sees Minh among the likers.
    await call('POST', `/chat/blocks/${lan.user.id}`, { token: minh.accessToken });
    expect((await call('GET', `/social/posts/${postId}/likes`, { token: lan.accessToken })).body.items.map((p: { userId: string }) => p.userId)).toEqual([
      lan.user.id,
    ]);

    // A post deleted since leaves the saved list; unsaving it still works.
    await call('DELETE', `/social/posts/${postId}`, { token: author.accessToken });
    expect(ids(await call('GET', '/social/saved', { token: lan.accessToken }))).toEqual([]);
    expect((await call('DELETE', `/social/posts/${postId}/save`, { token: lan.accessToken })).body).toEqual({ postId, saved: false });
  });

  it('lists show the counters rolled up into the post within seconds; the post itself counts exactly', async () => {
    const [author, lan, minh] = await Promise.all([registerVerified(), registerVerified(), registerVerified()]);
    const postId = (await post(author, { text: `rolled up ${randomUUID().slice(0, 6)}` })).id;
    const stored = async () => (await db().collection(SOCIAL_POSTS).doc(postId).get()).data()!;
    expect((await stored()).counts).toEqual({ likes: 0, comments: 0, shares: 0, views: 0, at: expect.any(Number) });
    await Promise.all([lan, minh].map((p) => call('POST', `/social/posts/${postId}/like`, { token: p.accessToken })));
    expect((await comment(lan, postId, { text: 'hay quá' })).status).toBe(201);
    expect(await counts(author, postId)).toMatchObject({ likes: 2, comments: 1 });
    // The author's own posts page reads the rolled-up counts: the shards' trigger asks, the task stores them.
    const listed = () => call('GET', `/social/users/${author.user.id}/posts`, { token: author.accessToken });
    await waitFor(
      async () => {
        const shown = (await listed()).body.items[0]?.counts;
        return shown?.likes === 2 && shown?.comments === 1 ? true : undefined;
      },
      {
        what: 'the rolled-up counts in the list',
      },
    );
    const rolled = (await stored()).counts;
    // A redelivered task stores the same sum again.
    await onPostCountsRollup({ postId, runAt: 0 });
    expect((await stored()).counts).toMatchObject({ likes: 2, comments: 1, shares: 0, views: 0 });
    expect((await stored()).counts.at).toBeGreaterThanOrEqual(rolled.at);
    // A post stored before rollups (no counts on it) is counted from its shards.
    await db().collection(SOCIAL_POSTS).doc(postId).update({ counts: FieldValue.delete() });
    expect((await listed()).body.items[0].counts).toMatchObject({ likes: 2, comments: 1 });
  });

  it('a hashtag page folds the tag and shows public posts only', async () => {
    const [author, reader] = await Promise.all([registerVerified(), registerVerified()]);
    const tag = `Phở${randomUUID().slice(0, 6).replace(/-/g, '')}`;
    const folded = `pho${tag.slice(3).toLowerCase()}`;
    const first = await post(author, { text: `Sáng nay #${tag}` });
    const second = await post(author, { text: `Tối nay #${tag.toUpperCase()} nữa` });
    await post(author, { text: `Riêng tư #${tag}`, visibility: 'FOLLOWERS' });
    const page = await call('GET', `/social/hashtags/${encodeURIComponent(`#${tag}`)}/posts`, { token: reader.accessToken });
    expect(ids(page)).toEqual([second.id, first.id]);
    expect((await call('GET', `/social/hashtags/${folded}`, { token: reader.accessToken })).body).toEqual({ tag: folded, posts: 2 });
    await call('POST', `/chat/blocks/${reader.user.id}`, { token: author.accessToken });
    expect(ids(await call('GET', `/social/hashtags/${folded}/posts`, { token: reader.accessToken }))).toEqual([]);
  });
});

describe('social notices', () => {
  it('likes aggregate into one inbox item; a comment, a reply, a follow and a mention notify', async () => {
    const [author, lan, minh, hoa] = await Promise.all(['Author', 'Lan', 'Minh', 'Hoa'].map((name) => registerVerified({ name })));
    const { id: postId } = await post(author, { text: 'like me' });
    await call('POST', `/social/posts/${postId}/like`, { token: author.accessToken });
    for (const p of [lan, minh, hoa]) await call('POST', `/social/posts/${postId}/like`, { token: p.accessToken });
    const likes = await noticeOf(author, 'SOCIAL_LIKE', postId, (i) => i.group.count === 3);
    expect(likes).toMatchObject({ event: 'social.like', group: { count: 3 }, read: false, data: { deepLink: { tab: 'SocialTab', params: { postId } } } });
    expect(likes.body).toMatch(/^(Lan|Minh|Hoa) and 2 others liked your post$/);
    expect(await inboxOf(author.user.id, { kind: 'SOCIAL_LIKE' })).toHaveLength(1);

    const handle = await handleOf(hoa);
    const top = (await comment(lan, postId, { text: 'nice' })).body;
    await comment(minh, postId, { text: `agree @${handle}`, parentId: top.id });
    expect((await noticeOf(lan, 'SOCIAL_COMMENT', top.id)).body).toBe('Minh replied to your comment');
    await noticeOf(author, 'SOCIAL_COMMENT', postId, (i) => i.group.count === 2);
    const mention = await noticeOf(hoa, 'SOCIAL_MENTION', postId);
    expect(mention).toMatchObject({ body: 'Minh mentioned you in a comment', data: { deepLink: { params: { postId, commentId: expect.any(String) } } } });
    await follow(lan, author);
    expect((await noticeOf(author, 'SOCIAL_FOLLOW', author.user.id)).body).toBe('Lan started following you');
    expect(await inboxOf(author.user.id, { kind: 'SOCIAL_LIKE' })).toMatchObject([{ group: { count: 3 } }]);
  });

  it('never for one’s own act, never across a block (also one made after the act), and a redelivery adds nothing', async () => {
    const [author, fan] = await Promise.all([registerVerified({ name: 'Author' }), registerVerified({ name: 'Fan' })]);
    const { id: postId } = await post(author, { text: 'mine' });
    const dispatched: unknown[] = [];
    const hub = { dispatch: async (i: unknown) => (dispatched.push(i), []), dispatchAggregated: async (i: unknown) => (dispatched.push(i), []) };
    const likeEvent = (userId: string) => ({
      id: `evt-${randomUUID()}`,
      time: new Date().toISOString(),
      params: {},
      before: undefined,
      after: { id: `${postId}_${userId}`, data: { postId, userId, createdAt: Date.now() } },
    });
    const config = {} as never;
    // A like taken back (or never made) is not news.
    expect(await onLikeCreated(likeEvent(fan.user.id), config, hub as never)).toBe('ignored');
    await Promise.all([author, fan].map((p) => call('POST', `/social/posts/${postId}/like`, { token: p.accessToken })));
    expect(await onLikeCreated(likeEvent(author.user.id), config, hub as never)).toBe('skipped');
    expect(await onLikeCreated(likeEvent(fan.user.id), config, hub as never)).toBe('notified');
    await call('POST', `/chat/blocks/${fan.user.id}`, { token: author.accessToken });
    expect(await onLikeCreated(likeEvent(fan.user.id), config, hub as never)).toBe('skipped');
    expect(dispatched).toHaveLength(1);
  });
});

describe('moderation', () => {
  it('reports queue up once per person; HIDE hides the post from feeds and others, restore brings it back', async () => {
    const [author, fan, reporter] = await Promise.all([registerVerified(), registerVerified(), registerVerified()]);
    await follow(fan, author);
    const { id: postId } = await post(author, { text: 'spam spam' });
    await waitFor(async () => ((await db().collection(SOCIAL_FEEDS).doc(fan.user.id).collection(FEED_ITEMS).doc(postId).get()).exists ? true : undefined), {
      what: 'the post in the fan’s feed',
    });
    const report = (who: Person) => call('POST', `/social/posts/${postId}/report`, { token: who.accessToken, body: { reason: 'SPAM' } });
    expect((await report(reporter)).status).toBe(201);
    expect((await report(reporter)).status).toBe(200);
    expect((await report(fan)).status).toBe(201);
    expect((await report(author)).body.code).toBe('SOCIAL_OWN_CONTENT');
    expect((await call('POST', `/social/posts/${postId}/report`, { token: fan.accessToken, body: { reason: 'NOPE' } })).status).toBe(400);

    expect((await call('GET', '/social/admin/reports', { token: fan.accessToken })).status).toBe(403);
    const admin = await adminTokens();
    const queue = (await call('GET', '/social/admin/reports?limit=100', { token: admin.accessToken })).body.items.filter(
      (r: { targetId: string }) => r.targetId === postId,
    );
    expect(queue).toHaveLength(2);
    expect(queue[0]).toMatchObject({ targetType: 'POST', reason: 'SPAM', excerpt: 'spam spam', authorId: author.user.id, status: 'OPEN' });

    const resolved = await call('POST', `/social/admin/reports/${queue[0].id}/resolve`, { token: admin.accessToken, body: { action: 'HIDE' } });
    expect(resolved.body).toEqual({ targetType: 'POST', targetId: postId, status: 'HIDDEN', resolved: 2 });
    expect((await call('POST', `/social/admin/reports/${queue[1].id}/resolve`, { token: admin.accessToken, body: { action: 'DISMISS' } })).body.code).toBe(
      'SOCIAL_REPORT_RESOLVED',
    );
    expect((await call('GET', `/social/posts/${postId}`, { token: fan.accessToken })).status).toBe(404);
    expect((await call('GET', `/social/posts/${postId}`, { token: author.accessToken })).status).toBe(200);
    await waitFor(async () => ((await db().collection(SOCIAL_FEEDS).doc(fan.user.id).collection(FEED_ITEMS).doc(postId).get()).exists ? undefined : true), {
      what: 'the hidden post to leave the feed',
    });

    expect((await call('POST', `/social/admin/posts/${postId}/restore`, { token: fan.accessToken })).status).toBe(403);
    expect((await call('POST', `/social/admin/posts/${postId}/restore`, { token: admin.accessToken })).body).toMatchObject({ status: 'ACTIVE' });
    expect((await call('POST', `/social/admin/posts/${postId}/restore`, { token: admin.accessToken })).body).toMatchObject({ status: 'ACTIVE' });
    await waitFor(async () => ((await db().collection(SOCIAL_FEEDS).doc(fan.user.id).collection(FEED_ITEMS).doc(postId).get()).exists ? true : undefined), {
      what: 'the restored post back in the feed',
    });
  });

  it('hiding a comment takes its thread out of the count; restoring brings it back', async () => {
    const [author, lan, minh] = await Promise.all([registerVerified(), registerVerified(), registerVerified()]);
    const { id: postId } = await post(author, { text: 'thread' });
    const top = (await comment(lan, postId, { text: 'rude' })).body;
    await comment(minh, postId, { text: 'reply', parentId: top.id });
    await comment(minh, postId, { text: 'fine' });
    expect((await call('POST', `/social/comments/${top.id}/report`, { token: minh.accessToken, body: { reason: 'HARASSMENT', note: 'rude' } })).status).toBe(
      201,
    );
    const admin = await adminTokens();
    expect((await call('POST', `/social/admin/comments/${top.id}/hide`, { token: admin.accessToken })).body).toEqual({
      targetType: 'COMMENT',
      targetId: top.id,
      status: 'HIDDEN',
      resolved: 1,
    });
    expect(await counts(author, postId)).toMatchObject({ comments: 1 });
    expect((await call('GET', `/social/comments/${top.id}`, { token: minh.accessToken })).status).toBe(404);
    expect((await call('POST', `/social/admin/comments/${top.id}/hide`, { token: admin.accessToken })).body).toMatchObject({ status: 'HIDDEN', resolved: 0 });
    expect((await call('POST', `/social/admin/comments/${top.id}/restore`, { token: admin.accessToken })).body).toMatchObject({ status: 'ACTIVE' });
    expect(await counts(author, postId)).toMatchObject({ comments: 3 });
    expect((await call('POST', `/social/admin/comments/nope${randomUUID().slice(0, 8)}/hide`, { token: admin.accessToken })).status).toBe(404);
  });
});

describe('reels', () => {
  const upload = async (who: Person, route: string, data: Buffer, type: string) => {
    const form = new FormData();
    form.append('file', new Blob([data], { type }), 'file');
    return (await call('POST', route, { token: who.accessToken, form })).body as { id: string; publicUrl: string };
  };
  const reel = (who: Person, body: Record<string, unknown>) => call('POST', '/social/reels', { token: who.accessToken, body, headers: key() });

  it('posts a reel from my video and cover; the reels feed holds reels of people I follow, then popular ones for newcomers', async () => {
    const [author, fan, newcomer, other] = await Promise.all([registerVerified(), registerVerified(), registerVerified(), registerVerified()]);
    await follow(fan, author);
    const [video, cover, theirVideo] = await Promise.all([
      upload(author, '/upload/video', mp4(), 'video/mp4'),
      upload(author, '/upload/image', png(), 'image/png'),
      upload(other, '/upload/video', mp4(), 'video/mp4'),
    ]);
    const created = await reel(author, { videoMediaId: video.id, coverMediaId: cover.id, durationSec: 42, caption: 'Hoàng hôn #SaiGon' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      type: 'REEL',
      text: 'Hoàng hôn #SaiGon',
      hashtags: ['saigon'],
      media: [{ id: video.id, kind: 'VIDEO', mimeType: 'video/mp4' }],
      reel: { durationSec: 42, cover: { id: cover.id, url: cover.publicUrl } },
    });
    for (const [body, status] of [
      [{ videoMediaId: cover.id, durationSec: 5 }, 422],
      [{ videoMediaId: theirVideo.id, durationSec: 5 }, 422],
      [{ videoMediaId: video.id, coverMediaId: video.id, durationSec: 5 }, 422],
      [{ videoMediaId: video.id, durationSec: 0 }, 400],
      [{ videoMediaId: video.id, durationSec: 181 }, 400],
    ] as const) {
      expect((await reel(author, body)).status).toBe(status);
    }
    // A post may carry one video too; a text post never enters the reels feed.
    const { id: textPost } = await post(author, { text: 'not a reel', mediaIds: [video.id] });
    const reelsOf = async (who: Person, cursor?: string) =>
      (await call('GET', `/social/reels/feed?limit=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token: who.accessToken })).body;
    await waitFor(async () => ((await reelsOf(fan)).items.some((i: { id: string }) => i.id === created.body.id) ? true : undefined), {
      what: 'the reel in the fan’s reels feed',
    });
    expect((await reelsOf(fan)).items.map((i: { id: string }) => i.id)).not.toContain(textPost);
    expect(ids(await call('GET', `/social/users/${author.user.id}/reels`, { token: other.accessToken }))).toEqual([created.body.id]);

    // A newcomer follows nobody: popular public reels of others (ranked again now), one page at a time.
    const second = (await reel(other, { videoMediaId: theirVideo.id, durationSec: 9 })).body;
    await reel(other, { videoMediaId: theirVideo.id, durationSec: 9, visibility: 'FOLLOWERS' });
    await Promise.all([fan, newcomer].map((p) => call('POST', `/social/posts/${created.body.id}/like`, { token: p.accessToken })));
    // The ranking reads the counts rolled up into the reels (a second or two behind the likes).
    await waitFor(async () => ((await db().collection(SOCIAL_POSTS).doc(created.body.id).get()).get('counts.likes') === 2 ? true : undefined), {
      what: 'the likes rolled up into the reel',
    });
    await db().collection('social_trending').doc('reels').delete();
    const first = await reelsOf(newcomer);
    expect(first.items.map((i: { id: string }) => i.id).slice(0, 2)).toEqual([created.body.id, second.id]);
    const paged = (await call('GET', '/social/reels/feed?limit=1', { token: newcomer.accessToken })).body;
    expect(paged.items.map((i: { id: string }) => i.id)).toEqual([created.body.id]);
    expect(ids({ body: await reelsOf(newcomer, paged.nextCursor) })[0]).toBe(second.id);
    expect((await call('GET', '/social/reels/feed?cursor=P~garbage', { token: newcomer.accessToken })).status).toBe(400);
    // Someone the author blocks never gets the author's reels among the popular ones.
    await call('POST', `/chat/blocks/${newcomer.user.id}`, { token: author.accessToken });
    expect((await reelsOf(newcomer)).items.map((i: { id: string }) => i.id)).not.toContain(created.body.id);
    // A retried reel (the same Idempotency-Key, after a lost answer) is the same reel.
    const headers = key();
    const again = await Promise.all(
      [1, 2].map(() => call('POST', '/social/reels', { token: author.accessToken, body: { videoMediaId: video.id, durationSec: 7 }, headers })),
    );
    const retried = await call('POST', '/social/reels', { token: author.accessToken, body: { videoMediaId: video.id, durationSec: 7 }, headers });
    expect(again.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    expect(again.filter((r) => r.status === 201).map((r) => r.body.id)).toEqual(again.filter((r) => r.status === 201).map(() => retried.body.id));
  });
});
