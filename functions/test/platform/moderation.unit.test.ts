import { assertModerator, defaultLayout, defineReportQueue, OPEN, type Moderator, type Report } from '../../src/platform/kits/moderation/moderation';

// The moderation kit without Firestore: ids, the stored layout, and the permission checks (made before any read).
// The queue itself (repeats, races, paging, resolution) is tested on the emulator: test/platform/moderation-kit.test.ts.

const queue = (name = 'posts:reports') =>
  defineReportQueue<{ reason: string }, 'REMOVED' | 'KEPT'>({ name, collection: 'unit_reports', outcomes: ['REMOVED', 'KEPT'], permission: 'moderation' });
const admin = (permissions?: string[]): Moderator => ({ userId: 'a1', roles: ['USER', 'ADMIN'], permissions });

describe('report ids', () => {
  it('one id per reporter and target: the same pair gives the same id, another reporter, target, key or queue another one', () => {
    const q = queue();
    const id = q.reportId('post1', 'u1');
    expect(q.reportId('post1', 'u1')).toBe(id);
    expect(id).toMatch(/^r_[A-Za-z0-9_-]{24}$/);
    const others = [q.reportId('post1', 'u2'), q.reportId('post2', 'u1'), q.reportId('post1', 'u1', 'k1'), queue('comments:reports').reportId('post1', 'u1')];
    expect(new Set([id, ...others]).size).toBe(5);
    // No boundary games between target and reporter.
    expect(q.reportId('ab', 'c')).not.toBe(q.reportId('a', 'bc'));
  });

  it('a queue may keep the ids its stored reports have', () => {
    const legacy = defineReportQueue({ name: 'x', collection: 'x', outcomes: ['DONE'], permission: 'moderation', reportId: (t, r) => `${t}_${r}` });
    expect(legacy.reportId('m1', 'u1')).toBe('m1_u1');
  });
});

describe('the default layout', () => {
  const layout = defaultLayout<{ reason: string }, 'REMOVED' | 'KEPT'>();
  const open: Report<{ reason: string }, 'REMOVED' | 'KEPT'> = {
    ...{ id: 'r1', targetId: 't1', reporterId: 'u1' },
    ...{ createdAt: 1_000, resolution: null, detail: { reason: 'SPAM' } },
  };

  it('stores an open report as OPEN and reads it back', () => {
    const stored = layout.toDocument(open);
    expect(stored).toMatchObject({ targetId: 't1', reporterId: 'u1', status: OPEN, outcome: null, resolvedBy: null, detail: { reason: 'SPAM' } });
    expect(layout.fromDocument('r1', stored)).toEqual(open);
  });

  it('stores a resolved one under its outcome, with who, when and the note', () => {
    const resolved = { ...open, resolution: { outcome: 'KEPT' as const, by: 'a1', at: 2_000, note: 'fine' } };
    const stored = layout.toDocument(resolved);
    expect(stored).toMatchObject({ status: 'KEPT', outcome: 'KEPT', resolvedBy: 'a1', resolvedAt: 2_000, resolutionNote: 'fine' });
    expect(layout.fromDocument('r1', stored)).toEqual(resolved);
    expect(layout.statusOf(null)).toBe(OPEN);
  });
});

describe('who moderates', () => {
  it('an administrator holding the permission, or every permission (undefined)', () => {
    expect(() => assertModerator(admin(['moderation']), 'moderation')).not.toThrow();
    expect(() => assertModerator(admin(undefined), 'moderation')).not.toThrow();
  });

  it('refuses an administrator without it (403 PERMISSION_REQUIRED) and a non-administrator (403 ROLE_REQUIRED)', () => {
    expect(() => assertModerator(admin([]), 'moderation')).toThrow(expect.objectContaining({ statusCode: 403, code: 'PERMISSION_REQUIRED' }));
    expect(() => assertModerator(admin(['rides.manage']), 'moderation')).toThrow(expect.objectContaining({ code: 'PERMISSION_REQUIRED' }));
    const user: Moderator = { userId: 'u1', roles: ['USER'], permissions: undefined };
    expect(() => assertModerator(user, 'moderation')).toThrow(expect.objectContaining({ statusCode: 403, code: 'ROLE_REQUIRED' }));
  });

  it('the queue checks before it reads: listing and resolving refuse the caller without a Firestore call', async () => {
    const q = queue();
    await expect(q.list(admin([]), { status: OPEN, limit: 10 })).rejects.toMatchObject({ code: 'PERMISSION_REQUIRED' });
    await expect(q.resolve(admin([]), 'r1', 'KEPT')).rejects.toMatchObject({ code: 'PERMISSION_REQUIRED' });
  });

  it('an outcome the queue does not have is a programming error', async () => {
    await expect(queue().resolve(admin(['moderation']), 'r1', 'BANNED' as 'KEPT')).rejects.toThrow(/no outcome BANNED/);
  });
});
