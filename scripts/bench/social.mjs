// P15, the social tab: (a) one post reaching 1,000 followers' feeds (the fan-out trigger's work, `fanOut`: the author's
// follower set, profile and the post in one getAll and their blocks, then batches of 500 side by side, the author's
// own item in the first) ÷ a raw batched write of the same 1,000 feed documents, the median of 40 paired rounds; (b) a feed page of 20 (`GET /social/posts/feed`'s service: the feed's items, the reader's profile and blocks,
// then their posts (with their rolled-up counts), blocks, authors and likes) p95 ÷ one indexed query of the same 20
// feed documents. Run by `npm run bench` inside `firebase emulators:exec`; writes its figures as JSON to the path given.
import fs from 'node:fs';
import { PROJECT_ID } from '../lib/util.mjs';
import { lib } from './functions-lib.mjs';
import { attempt, median, pairedSpread, percentile, spread } from './stats.mjs';
const { db } = lib('platform/core/firebase/firebase.js');
const { fanOut } = lib('modules/social/social.fanout.js');
const { createPostsService } = lib('modules/social/social.posts.js');
const { socialRepo } = lib('modules/social/social.repo.js');

const log = (m) => process.stdout.write(`[superapp]   ${m}\n`);
const wipe = () => fetch(`http://${process.env.FIRESTORE_EMULATOR_HOST}/emulator/v1/projects/${PROJECT_ID}/databases/(default)/documents`, { method: 'DELETE' });
const AUTHOR = 'bench-author';
const follower = (i) => `bench-f${String(i).padStart(5, '0')}`;
const account = (name) => ({ name, roles: ['USER'], hats: ['CON'], disabled: false, status: 'ACTIVE', email: null, createdAt: Date.now() });

async function commitAll(writes) {
  const batches = [];
  for (let i = 0; i < writes.length; i += 500) {
    const batch = db().batch();
    for (const [ref, data] of writes.slice(i, i + 500)) batch.set(ref, data);
    batches.push(batch.commit());
  }
  await Promise.all(batches);
}

function postRecord(id, createdAt, counts = { likes: 0, comments: 0, shares: 0, views: 0 }) {
  return {
    authorId: AUTHOR,
    author: { name: 'Bench Author', handle: null },
    type: 'POST',
    text: `bench post ${id}`,
    media: [],
    location: null,
    visibility: 'PUBLIC',
    hashtags: [],
    mentions: [],
    status: 'ACTIVE',
    createdAt,
    updatedAt: createdAt,
    // The counters as rolled up into the post (what a feed reads).
    counts: { ...counts, at: createdAt },
  };
}

async function p15fanout(followers = 1_000, rounds = 40) {
  await wipe();
  log(`P15: seeding an author with ${followers} followers …`);
  const t = Date.now();
  await commitAll([
    [db().collection('users').doc(AUTHOR), account('Bench Author')],
    ...Array.from({ length: followers }, (_, i) => [
      db().collection('social_follows').doc(`${follower(i)}_${AUTHOR}`),
      { followerId: follower(i), followeeId: AUTHOR, createdAt: t + i },
    ]),
    // The author's follower set, as the follows keep it.
    ...Object.entries(socialRepo.followerSet.documentsOf(AUTHOR, Array.from({ length: followers }, (_, i) => follower(i)))).flatMap(([collection, docs]) =>
      Object.entries(docs).map(([id, data]) => [db().collection(collection).doc(id), data]),
    ),
  ]);
  const fanoutMs = [];
  const rawMs = [];
  // A warm-up round, then rounds taking turns at going first.
  for (let r = 0; r <= rounds; r += 1) {
    const id = `bench-post-${r}`;
    const post = { id, ...postRecord(id, Date.now()) };
    await db().collection('social_posts').doc(id).set(postRecord(id, post.createdAt));
    const item = { postId: `raw-${r}`, authorId: AUTHOR, type: 'POST', createdAt: post.createdAt };
    const timeFanout = async () => {
      const started = performance.now();
      const result = await fanOut(post, 5_000);
      const ms = performance.now() - started;
      if (result.feeds !== followers + 1) throw new Error(`the fan-out wrote ${result.feeds} feeds`);
      return ms;
    };
    const timeRaw = async () => {
      const started = performance.now();
      await commitAll(Array.from({ length: followers }, (_, i) => [db().collection('social_feeds').doc(follower(i)).collection('feed_items').doc(item.postId), item]));
      return performance.now() - started;
    };
    const [a, b] = r % 2 ? [await timeRaw(), await timeFanout()] : [await timeFanout(), await timeRaw()];
    const [f, raw] = r % 2 ? [b, a] : [a, b];
    if (r === 0) continue;
    fanoutMs.push(f);
    rawMs.push(raw);
    log(`  P15 round ${r}/${rounds}: fan-out ${Math.round(f)} ms, raw ${Math.round(raw)} ms`);
  }
  const ratios = fanoutMs.map((f, i) => f / rawMs[i]);
  const r3 = (x) => Math.round(x * 1000) / 1000;
  return {
    followers,
    rounds,
    fanoutMedianMs: Math.round(median(fanoutMs)),
    rawMedianMs: Math.round(median(rawMs)),
    ratio: r3(median(ratios)),
    spread: spread(ratios),
  };
}

async function p15feed(posts = 30, rounds = 40, warmup = 5) {
  await wipe();
  const viewer = follower(0);
  log(`P15: seeding a feed of ${posts} posts …`);
  const t = Date.now();
  const writes = [
    [db().collection('users').doc(AUTHOR), account('Bench Author')],
    [db().collection('users').doc(viewer), account('Bench Reader')],
    [db().collection('social_follows').doc(`${viewer}_${AUTHOR}`), { followerId: viewer, followeeId: AUTHOR, createdAt: t }],
  ];
  for (let i = 0; i < posts; i += 1) {
    const id = `bench-feed-post-${String(i).padStart(3, '0')}`;
    // Some engagement, as a feed has: on a shard and rolled up into the post.
    const counts = { likes: i % 7, comments: i % 3, shares: 0, views: i };
    writes.push([db().collection('social_posts').doc(id), postRecord(id, t - i * 60_000, counts)]);
    writes.push([db().collection('social_feeds').doc(viewer).collection('feed_items').doc(id), { postId: id, authorId: AUTHOR, type: 'POST', createdAt: t - i * 60_000 }]);
    writes.push([db().collection('social_posts').doc(id).collection('counter_shards').doc('0'), counts]);
  }
  await commitAll(writes);
  const service = createPostsService();
  const feedMs = [];
  const rawMs = [];
  for (let r = 0; r < rounds + warmup; r += 1) {
    const timeFeed = async () => {
      const started = performance.now();
      const page = await service.feed({ userId: viewer }, { limit: 20 });
      const ms = performance.now() - started;
      if (page.items.length !== 20) throw new Error(`the feed answered ${page.items.length} posts`);
      return ms;
    };
    const timeRaw = async () => {
      const started = performance.now();
      const snap = await db().collection('social_feeds').doc(viewer).collection('feed_items').orderBy('createdAt', 'desc').limit(20).get();
      if (snap.size !== 20) throw new Error(`the query read ${snap.size}`);
      return performance.now() - started;
    };
    // Taking turns at going first.
    let f;
    let q;
    if (r % 2) {
      q = await timeRaw();
      f = await timeFeed();
    } else {
      f = await timeFeed();
      q = await timeRaw();
    }
    if (r < warmup) continue;
    feedMs.push(f);
    rawMs.push(q);
  }
  const r3 = (x) => Math.round(x * 1000) / 1000;
  const p95Feed = percentile(feedMs, 95);
  const p95Raw = percentile(rawMs, 95);
  return {
    posts,
    rounds,
    feedP50Ms: Math.round(median(feedMs)),
    feedP95Ms: Math.round(p95Feed),
    rawP50Ms: Math.round(median(rawMs)),
    rawP95Ms: Math.round(p95Raw),
    ratioP95: r3(p95Feed / p95Raw),
    ratioP50: r3(median(feedMs) / median(rawMs)),
    spread: pairedSpread(feedMs, rawMs),
  };
}

const out = process.argv[2];
const only = process.env.BENCH_ONLY?.split(',');
if (!only || only.includes('P15')) {
  const fanout = await attempt('P15 fan-out', () => p15fanout());
  const feed = await attempt('P15 feed', () => p15feed());
  fs.writeFileSync(out, JSON.stringify({ P15: { fanout, feed } }, null, 2));
  log(`P15: fan-out ${fanout.ratio ?? fanout.error}×, feed p95 ${feed.ratioP95 ?? feed.error}×`);
} else fs.writeFileSync(out, JSON.stringify({}));
process.exit(0);
