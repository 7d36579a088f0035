import { AppError } from '../../src/platform/errors/app-error';
import { decodeCursor, encodeCursor, PageQuerySchema } from '../../src/platform/firestore/paginate';

const inbox = { query: 'inbox', caller: 'user-a' };

describe('platform/firestore paginate cursors', () => {
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
    ['an object value that is not a timestamp', () => decodeCursor(Buffer.from(JSON.stringify({ v: [{ a: 1 }], id: 'a', t: 'x' })).toString('base64url'), inbox, 1)],
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
