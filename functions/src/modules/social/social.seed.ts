import type { SeedContext } from '../../platform/core/module/maintenance';
import { COUNTER_SHARDS } from '../../platform/kits/counters/sharded-counter';
import { FEED_ITEMS, SOCIAL_COMMENTS, SOCIAL_FEEDS, SOCIAL_FOLLOWS, SOCIAL_HANDLES, SOCIAL_LIKES, SOCIAL_POSTS, SOCIAL_PROFILES } from './social.collections';
import { followId, hashtagsOf, likeId, type CommentRecord, type PostRecord } from './social.model';
import { socialRepo } from './social.repo';

// The two demo consumers' social tab (emulator only): handles, following each other, a few posts and two reels in
// both feeds (no trigger runs while seeding: the fan-out's feed items are written here), a like and a comment with
// the counters they would have set. Fixed ids: a second run rewrites the same documents.
const DEMO_MEDIA = 'http://127.0.0.1:5000/demo/social';

export async function seedSocial(ctx: SeedContext): Promise<void> {
  const [lan, minh] = (ctx.fixtures as { DEMO_USERS: Array<{ id: string; name: string }> }).DEMO_USERS;
  const hour = 3_600_000;
  const people = [
    { user: lan, handle: 'lan', bio: 'Sài Gòn · cà phê sữa đá mỗi sáng ☕' },
    { user: minh, handle: 'minh', bio: 'Hà Nội · phở và những chuyến đi' },
  ];
  const script: Array<[{ id: string; name: string }, string, number]> = [
    [minh, 'Phở bò sáng nay ở phố cổ, nước dùng trong veo 🍜 #PhởHàNội #AnSang', 20],
    [lan, 'Hoàng hôn trên sông Sài Gòn hôm nay đẹp quá #SaiGon #HoangHon', 12],
    [minh, 'Cuối tuần này ai vào Sài Gòn cùng mình không? @lan #DuLich', 6],
    [lan, 'Cà phê sữa đá và một cuốn sách, thứ Bảy hoàn hảo #SaiGon', 2],
  ];
  const posts: PostRecord[] = script.map(([author, text, hoursAgo], i) => {
    const at = ctx.now - hoursAgo * hour;
    return {
      id: `seed-post-${i + 1}`,
      authorId: author.id,
      author: { name: author.name, handle: people.find((p) => p.user.id === author.id)!.handle },
      type: 'POST',
      text,
      media: [],
      location: null,
      visibility: 'PUBLIC',
      hashtags: hashtagsOf(text),
      mentions: text.includes('@lan') ? [{ userId: lan.id, handle: 'lan' }] : [],
      status: 'ACTIVE',
      createdAt: at,
      updatedAt: at,
    };
  });
  // Two short reels (the videos and covers are Hosting's demo files, openapi/demo/social).
  const reel = (i: number, author: { id: string; name: string }, name: string, caption: string, hoursAgo: number): PostRecord => {
    const at = ctx.now - hoursAgo * hour;
    const file = `${DEMO_MEDIA}/${name}`;
    return {
      id: `seed-reel-${i}`,
      authorId: author.id,
      author: { name: author.name, handle: people.find((p) => p.user.id === author.id)!.handle },
      type: 'REEL',
      text: caption,
      media: [{ id: `seed-${name}-video`, kind: 'VIDEO', mimeType: 'video/mp4', url: `${file}.mp4` }],
      reel: { durationSec: 4, cover: { id: `seed-${name}-cover`, url: `${file}.jpg` } },
      location: null,
      visibility: 'PUBLIC',
      hashtags: hashtagsOf(caption),
      mentions: [],
      status: 'ACTIVE',
      createdAt: at,
      updatedAt: at,
    };
  };
  posts.push(reel(1, minh, 'reel-pho', 'Một tô phở trong 4 giây #PhởHàNội', 8), reel(2, lan, 'reel-saigon', 'Sài Gòn về đêm #SaiGon', 4));
  const comment: CommentRecord = {
    id: 'seed-comment-1',
    postId: posts[2].id,
    postAuthorId: minh.id,
    parentId: null,
    replyTo: null,
    authorId: lan.id,
    author: { name: lan.name, handle: 'lan' },
    text: 'Đi chứ anh! Em đặt xe đón anh ở Tân Sơn Nhất nhé.',
    mentions: [],
    status: 'ACTIVE',
    createdAt: posts[2].createdAt + hour,
    updatedAt: posts[2].createdAt + hour,
  };
  const record = <T extends { id: string }>({ id: _id, ...fields }: T) => fields;

  await ctx.write(
    SOCIAL_PROFILES,
    Object.fromEntries(
      people.map((p) => [p.user.id, { userId: p.user.id, handle: p.handle, bio: p.bio, avatar: null, large: false, mergeAuthors: [], updatedAt: ctx.now }]),
    ),
  );
  await ctx.write(SOCIAL_HANDLES, Object.fromEntries(people.map((p) => [p.handle, { handle: p.handle, userId: p.user.id }])));
  await ctx.write(
    SOCIAL_FOLLOWS,
    Object.fromEntries(
      [
        [lan, minh],
        [minh, lan],
      ].map(([a, b]) => [followId(a.id, b.id), { followerId: a.id, followeeId: b.id, createdAt: ctx.now - 30 * hour }]),
    ),
  );
  // Each one's follower set, as the follows would have kept it.
  for (const [owner, follower] of [
    [minh, lan],
    [lan, minh],
  ]) {
    for (const [collection, docs] of Object.entries(socialRepo.followerSet.documentsOf(owner.id, [follower.id]))) await ctx.write(collection, docs);
  }
  for (const p of people) {
    const own = posts.filter((post) => post.authorId === p.user.id).length;
    await ctx.write(`${SOCIAL_PROFILES}/${p.user.id}/${COUNTER_SHARDS}`, { '0': { posts: own, followers: 1, following: 1 } });
  }
  // Lan likes Minh's phở and comments on his trip; the counters say so (in the shards and rolled up into the posts).
  const countsOf = (p: PostRecord) => {
    const likes = p.id === posts[0].id ? 1 : 0;
    const comments = p.id === comment.postId ? 1 : 0;
    return { likes, comments, shares: 0, views: likes + comments };
  };
  await ctx.write(SOCIAL_POSTS, Object.fromEntries(posts.map((p) => [p.id, { ...record(p), counts: { ...countsOf(p), at: ctx.now } }])));
  // Each post in both feeds (they follow each other), as the fan-out would have written them.
  for (const user of [lan, minh]) {
    await ctx.write(
      `${SOCIAL_FEEDS}/${user.id}/${FEED_ITEMS}`,
      Object.fromEntries(posts.map((p) => [p.id, { postId: p.id, authorId: p.authorId, type: p.type, createdAt: p.createdAt }])),
    );
  }
  await ctx.write(SOCIAL_LIKES, { [likeId(posts[0].id, lan.id)]: { postId: posts[0].id, userId: lan.id, createdAt: posts[0].createdAt + hour } });
  await ctx.write(SOCIAL_COMMENTS, { [comment.id]: record(comment) });
  for (const p of posts) await ctx.write(`${SOCIAL_POSTS}/${p.id}/${COUNTER_SHARDS}`, { '0': countsOf(p) });
  ctx.log(`social: ${posts.length} posts, a like and a comment between the demo consumers`);
}
