import { randomUUID } from 'node:crypto';
import { db } from '../../src/platform/core/firebase/firebase';
import { useCursorSecret } from '../../src/platform/kits/firestore/paginate';
import { defineReportQueue, OPEN, type Moderator } from '../../src/platform/kits/moderation/moderation';
import { TEST_JWT_SECRET } from '../helpers/config';
import { requireEmulators } from '../helpers/emulators';

// The moderation kit on the emulator: one report per reporter and target (a repeat and a race land on one
// document), the queue paged in its order, and resolution by permitted administrators only, with one repeat rule.

beforeAll(requireEmulators);
beforeAll(() => useCursorSecret(TEST_JWT_SECRET));

const COLLECTION = 'moderation_kit_reports';
const OUTCOMES = ['REMOVED', 'KEPT'] as const;
// Each report a millisecond after the last: the order of the queue is the order of filing.
let tick = Date.now();
const makeQueue = (order: 'asc' | 'desc' = 'desc') =>
  defineReportQueue<{ reason: string }, (typeof OUTCOMES)[number]>({
    name: `kit:${order}`,
    collection: COLLECTION,
    outcomes: OUTCOMES,
    permission: 'moderation',
    order,
    resolvedCode: 'REVIEW_REPORT_RESOLVED',
    clock: () => (tick = Math.max(tick + 1, Date.now())),
  });
const queue = makeQueue();
const moderator: Moderator = { userId: `mod-${randomUUID()}`, roles: ['ADMIN'], permissions: ['moderation'] };
const unpermitted: Moderator = { userId: `adm-${randomUUID()}`, roles: ['ADMIN'], permissions: ['rides.manage'] };
const target = () => `post-${randomUUID()}`;
const storedFor = async (targetId: string) => (await db().collection(COLLECTION).where('targetId', '==', targetId).get()).docs;

describe('filing reports', () => {
  it('two reporters file two reports; a repeat returns the first one unchanged (created: false)', async () => {
    const post = target();
    const first = await queue.file({ targetId: post, reporterId: 'u1', detail: { reason: 'SPAM' } });
    const second = await queue.file({ targetId: post, reporterId: 'u2', detail: { reason: 'ABUSE' } });
    expect([first.created, second.created]).toEqual([true, true]);
    expect(first.report.id).not.toBe(second.report.id);
    const again = await queue.file({ targetId: post, reporterId: 'u1', detail: { reason: 'OTHER' } });
    expect(again).toEqual({ report: first.report, created: false });
    expect((await storedFor(post)).map((d) => d.get('detail.reason')).sort()).toEqual(['ABUSE', 'SPAM']);
    expect(await queue.get(first.report.id)).toEqual(first.report);
  });

  it('identical reports racing: one is created, every caller gets that one', async () => {
    const post = target();
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => queue.file({ targetId: post, reporterId: 'racer', detail: { reason: `try ${i}` } })));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.report.id)).size).toBe(1);
    expect(new Set(results.map((r) => r.report.detail.reason)).size).toBe(1);
    expect(await storedFor(post)).toHaveLength(1);
  });

  it('a key files several reports of one reporter on one target; a guard that throws files nothing', async () => {
    const post = target();
    const a = await queue.file({ targetId: post, reporterId: 'u1', key: 'k1', detail: { reason: 'x' } });
    const b = await queue.file({ targetId: post, reporterId: 'u1', key: 'k2', detail: { reason: 'y' } });
    expect(a.report.id).not.toBe(b.report.id);
    await expect(
      queue.file({ targetId: post, reporterId: 'u3', detail: { reason: 'z' } }, async () => {
        throw new Error('not a member');
      }),
    ).rejects.toThrow('not a member');
    expect(await storedFor(post)).toHaveLength(2);
  });
});

describe('resolving', () => {
  it('an administrator without the permission is refused and nothing changes; a moderator resolves with who and when', async () => {
    const { report } = await queue.file({ targetId: target(), reporterId: 'u1', detail: { reason: 'SPAM' } });
    await expect(queue.resolve(unpermitted, report.id, 'REMOVED')).rejects.toMatchObject({ statusCode: 403, code: 'PERMISSION_REQUIRED' });
    await expect(queue.resolve({ ...moderator, roles: ['USER'] }, report.id, 'REMOVED')).rejects.toMatchObject({ statusCode: 403, code: 'ROLE_REQUIRED' });
    expect((await queue.get(report.id))?.resolution).toBeNull();

    const before = Date.now();
    const done = await queue.resolve(moderator, report.id, 'REMOVED', { note: 'gone' });
    expect(done.changed).toBe(true);
    expect(done.report.resolution).toEqual({ outcome: 'REMOVED', by: moderator.userId, at: expect.any(Number), note: 'gone' });
    expect(done.report.resolution!.at).toBeGreaterThanOrEqual(before);
    expect((await db().collection(COLLECTION).doc(report.id).get()).get('status')).toBe('REMOVED');
  });

  it('again with the same outcome: nothing changes; with another: 409 with the queue’s code; an unknown report: 404', async () => {
    const { report } = await queue.file({ targetId: target(), reporterId: 'u1', detail: { reason: 'SPAM' } });
    const first = await queue.resolve(moderator, report.id, 'KEPT');
    const other: Moderator = { userId: `mod-${randomUUID()}`, roles: ['ADMIN'], permissions: undefined };
    const repeat = await queue.resolve(other, report.id, 'KEPT');
    expect(repeat).toEqual({ report: first.report, closed: [], changed: false, effect: undefined });
    const conflict = { statusCode: 409, code: 'REVIEW_REPORT_RESOLVED', details: { status: 'KEPT', outcome: 'KEPT' } };
    await expect(queue.resolve(moderator, report.id, 'REMOVED')).rejects.toMatchObject(conflict);
    await expect(queue.resolve(moderator, `nope-${randomUUID()}`, 'KEPT')).rejects.toMatchObject({ statusCode: 404 });
  });

  it('wholeTarget closes every open report of the target, with the effect in the same transaction; other targets stay open', async () => {
    const [post, elsewhere] = [target(), target()];
    const reports = [];
    for (const who of ['u1', 'u2', 'u3']) reports.push((await queue.file({ targetId: post, reporterId: who, detail: { reason: 'SPAM' } })).report);
    const kept = (await queue.file({ targetId: elsewhere, reporterId: 'u1', detail: { reason: 'SPAM' } })).report;
    await queue.resolve(moderator, reports[2].id, 'KEPT');
    const effectRef = db().collection(COLLECTION).doc(`effect-${post}`);
    const done = await queue.resolve(moderator, reports[0].id, 'REMOVED', {
      wholeTarget: true,
      async alongside(tx, report, closing) {
        const seen = await tx.get(effectRef);
        tx.set(effectRef, { removed: report.targetId, closing: closing.length, existed: seen.exists });
        return 'removed';
      },
    });
    expect([done.closed.map((r) => r.id).sort(), done.effect]).toEqual([[reports[0].id, reports[1].id].sort(), 'removed']);
    expect((await effectRef.get()).data()).toEqual({ removed: post, closing: 2, existed: false });
    expect((await queue.get(reports[1].id))?.resolution).toMatchObject({ outcome: 'REMOVED', by: moderator.userId });
    expect((await queue.get(reports[2].id))?.resolution?.outcome).toBe('KEPT');
    expect((await queue.get(kept.id))?.resolution).toBeNull();
    await effectRef.delete();
  });
});

describe('the queue', () => {
  it('pages the reports of a status in the queue’s order with cursors; refuses an administrator without the permission', async () => {
    const oldest = makeQueue('asc');
    const post = target();
    const ids: string[] = [];
    for (const who of ['p1', 'p2', 'p3']) ids.push((await oldest.file({ targetId: post, reporterId: who, detail: { reason: 'SPAM' } })).report.id);
    const mine = async (q: typeof oldest, status: string | null = OPEN) => {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await q.list(moderator, { status: status ?? undefined, limit: 50, cursor });
        seen.push(...page.items.filter((r) => r.targetId === post).map((r) => r.id));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return seen;
    };
    expect(await mine(oldest)).toEqual(ids);
    expect(await mine(makeQueue('desc'))).toEqual([...ids].reverse());
    // Without a status: every report, open or resolved (a queue shown whole, like the ride SOS list).
    await oldest.resolve(moderator, ids[1], 'KEPT');
    expect(await mine(oldest)).toEqual([ids[0], ids[2]]);
    expect(await mine(oldest, null)).toEqual(ids);
    const firstPage = await oldest.list(moderator, { status: OPEN, limit: 1 });
    expect(firstPage.items).toHaveLength(1);
    expect(firstPage.nextCursor).toEqual(expect.any(String));
    const elsewhere = oldest.list({ ...moderator, userId: 'someone-else' }, { status: OPEN, limit: 1, cursor: firstPage.nextCursor! });
    await expect(elsewhere).rejects.toMatchObject({ code: 'INVALID_CURSOR' });
    await expect(oldest.list(unpermitted, { status: OPEN, limit: 1 })).rejects.toMatchObject({ code: 'PERMISSION_REQUIRED' });
  });
});
