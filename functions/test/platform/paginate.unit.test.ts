import { AppError } from '../../src/platform/core/errors/app-error';
import { createHash } from 'node:crypto';
import { decodeCursor, encodeCursor, PageQuerySchema, useCursorSecret } from '../../src/platform/kits/firestore/paginate';
import { TEST_JWT_SECRET } from '../helpers/config';

const inbox = { query: 'inbox', caller: 'user-a' };

beforeAll(() => useCursorSecret(TEST_JWT_SECRET));

const refusal = (decode: () => unknown) => {
  try {
    decode();
  } catch (err) {
    return [(err as AppError).statusCode, (err as AppError).code];
  }
  return undefined;
};

describe('platform/kits/firestore paginate cursors', () => {
  it('signs cursors with a server key (issue 29): a cursor minted with the old unkeyed tag, or with a changed position, is 400 INVALID_CURSOR', () => {
    // The old format: the position plus sha256(query, caller), which anyone could compute.
    const oldTag = createHash('sha256').update(`${inbox.query}\u0000${inbox.caller}`).digest('base64url').slice(0, 16);
    const minted = Buffer.from(JSON.stringify({ v: [5], id: 'doc-9', t: oldTag })).toString('base64url');
    expect(refusal(() => decodeCursor(minted, inbox, 1))).toEqual([400, 'INVALID_CURSOR']);
    // A real cursor whose position is edited keeps its tag but no longer matches it.
    const real = JSON.parse(Buffer.from(encodeCursor([5], 'doc-9', inbox), 'base64url').toString('utf8'));
    const moved = Buffer.from(JSON.stringify({ ...real, v: [1] })).toString('base64url');
    expect(refusal(() => decodeCursor(moved, inbox, 1))).toEqual([400, 'INVALID_CURSOR']);
    // Another server key (another deployment): its cursors are not good here.
    useCursorSecret('another-secret-0123456789abcdef0123456789');
    const foreign = encodeCursor([5], 'doc-9', inbox);
    useCursorSecret(TEST_JWT_SECRET);
    expect(refusal(() => decodeCursor(foreign, inbox, 1))).toEqual([400, 'INVALID_CURSOR']);
    expect(decodeCursor(encodeCursor([5], 'doc-9', inbox), inbox, 1)).toEqual({ values: [5], id: 'doc-9' });
  });

  it('round-trips order-by values and the id, Timestamps included', () => {
    const ts = { toMillis: () => 1_700_000_000_123 };
    const cursor = encodeCursor([1_700_000_000_000, 'x', ts, null], 'doc-1', inbox);
    const { values, id } = decodeCursor(cursor, inbox, 4);
    expect(id).toBe('doc-1');
    expect(values.slice(0, 2)).toEqual([1_700_000_000_000, 'x']);
    expect((values[2] as { toMillis(): number }).toMillis()).toBe(1_700_000_000_123);
    expect(values[3]).toBeNull();
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it.each([
    ['another caller', () => decodeCursor(encodeCursor([1], 'd', inbox), { ...inbox, caller: 'user-b' }, 1)],
    ['another list', () => decodeCursor(encodeCursor([1], 'd', inbox), { ...inbox, query: 'inbox:unread' }, 1)],
    ['a different number of order fields', () => decodeCursor(encodeCursor([1], 'd', inbox), inbox, 2)],
    ['not base64 JSON', () => decodeCursor('%%%', inbox, 1)],
    ['a bare document id (old format)', () => decodeCursor('abcDEF123', inbox, 1)],
    ['an id with a slash', () => decodeCursor(Buffer.from(JSON.stringify({ v: [1], id: 'a/b', t: 'x' })).toString('base64url'), inbox, 1)],
    [
      'an object value that is not a timestamp',
      () => decodeCursor(Buffer.from(JSON.stringify({ v: [{ a: 1 }], id: 'a', t: 'x' })).toString('base64url'), inbox, 1),
    ],
  ])('refuses a cursor of %s with 400 INVALID_CURSOR', (_what, decode) => {
    let error: AppError | undefined;
    try {
      decode();
    } catch (err) {
      error = err as AppError;
    }
    expect([error?.statusCode, error?.code]).toEqual([400, 'INVALID_CURSOR']);
  });

  it('PageQuerySchema: limit 1..100 (default 20), cursor optional', () => {
    expect(PageQuerySchema.parse({})).toEqual({ limit: 20 });
    expect(PageQuerySchema.parse({ limit: '5', cursor: 'c' })).toEqual({ limit: 5, cursor: 'c' });
    expect(PageQuerySchema.safeParse({ limit: '0' }).success).toBe(false);
    expect(PageQuerySchema.safeParse({ limit: '101' }).success).toBe(false);
    expect(PageQuerySchema.safeParse({ cursor: '' }).success).toBe(false);
  });
});
