import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { getConfig } from '../../core/config/config';
import { BadRequestError } from '../../core/errors/app-error';
import { firestoreApi } from '../../core/firebase/firebase';
import { timestampOf } from '../time/time';
import { STORED_TIME_FORMS } from './documents';

// Cursor paging shared by every list. The cursor is opaque: the order-by values and id of the page's last
// document (no extra read to resume, and a document the caller cannot see is never fetched), plus a tag that
// binds it to its query and caller. A cursor used on another list or by another caller is 400 INVALID_CURSOR.
// The tag is an HMAC of the whole cursor keyed by the server (derived from JWT_SECRET with its own label): a client
// cannot mint or alter one (an old unkeyed cursor is 400 too). Positions are values, not documents.

export const PAGE_LIMIT_MAX = 100;

/** `limit` and `cursor` of every list; extend it with the list's own filters. */
export const PageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(PAGE_LIMIT_MAX).default(20),
  cursor: z.string().min(1).max(2000).optional().describe('nextCursor of the previous page (opaque)'),
});

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface OrderBy {
  field: string;
  direction: 'asc' | 'desc';
}

export interface PageRequest {
  limit: number;
  cursor?: string;
  /** Names the list and the filters that shape it (e.g. `inbox:unread`): a cursor works only where it was made. */
  query: string;
  /** Who lists (an account id); a cursor is good for its caller only. */
  caller: string;
}

type CursorValue = string | number | boolean | null | { ts: number };
interface CursorBody {
  v: CursorValue[];
  id: string;
  t: string;
}

let cursorKey: Buffer | undefined;
/** Keys the cursors of this process (the app does it with its configuration; otherwise the environment's). */
export function useCursorSecret(serverSecret: string): void {
  cursorKey = createHmac('sha256', serverSecret).update('paginate-cursors').digest();
}
const keyOf = () => {
  if (!cursorKey) useCursorSecret(getConfig().JWT_SECRET);
  return cursorKey!;
};
const tagOf = (body: Omit<CursorBody, 't'>, query: string, caller: string) =>
  createHmac('sha256', keyOf())
    .update(JSON.stringify([query, caller, body.v, body.id]))
    .digest('base64url')
    .slice(0, 22);

function encodeValue(value: unknown): CursorValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof (value as { toMillis?: unknown }).toMillis === 'function') return { ts: (value as { toMillis(): number }).toMillis() };
  throw new Error(`paginate: cannot order by a value of type ${typeof value}`);
}

function decodeValue(value: CursorValue): unknown {
  if (value !== null && typeof value === 'object') {
    return timestampOf(value.ts);
  }
  return value;
}

export function encodeCursor(values: unknown[], id: string, request: Pick<PageRequest, 'query' | 'caller'>): string {
  const unsigned = { v: values.map(encodeValue), id };
  const body: CursorBody = { ...unsigned, t: tagOf(unsigned, request.query, request.caller) };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

/** 400 INVALID_CURSOR: for lists that check a cursor's values themselves. */
export const invalidCursor = () =>
  new BadRequestError('cursor is not a nextCursor of this list', [{ field: 'query.cursor', message: 'is invalid for this list' }]).withCode('INVALID_CURSOR');

const sameTag = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export function decodeCursor(cursor: string, request: Pick<PageRequest, 'query' | 'caller'>, fields: number): { values: unknown[]; id: string } {
  let body: CursorBody;
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as CursorBody;
  } catch {
    throw invalidCursor();
  }
  const wellFormed =
    body !== null &&
    typeof body === 'object' &&
    Array.isArray(body.v) &&
    body.v.length === fields &&
    body.v.every(
      (v) => v === null || ['string', 'number', 'boolean'].includes(typeof v) || (typeof v === 'object' && typeof (v as { ts?: unknown }).ts === 'number'),
    ) &&
    typeof body.id === 'string' &&
    body.id.length > 0 &&
    body.id.length <= 1500 &&
    !body.id.includes('/');
  if (!wellFormed || typeof body.t !== 'string' || !sameTag(body.t, tagOf(body, request.query, request.caller))) throw invalidCursor();
  return { values: body.v.map(decodeValue), id: body.id };
}

/**
 * One page of `query` ordered by `orderBy` then the document id (same direction as the last order), starting
 * after the cursor. The composite index of each query goes in firestore.indexes.json.
 */
export async function paginate<R, T>(
  query: FirebaseFirestore.Query<R>,
  orderBy: readonly OrderBy[],
  request: PageRequest,
  map: (doc: FirebaseFirestore.QueryDocumentSnapshot<R>) => T,
): Promise<Page<T>> {
  const { FieldPath } = firestoreApi();
  let ordered = query;
  for (const order of orderBy) ordered = ordered.orderBy(order.field, order.direction);
  ordered = ordered.orderBy(FieldPath.documentId(), orderBy.at(-1)?.direction ?? 'asc');
  if (request.cursor) {
    const { values, id } = decodeCursor(request.cursor, request, orderBy.length);
    ordered = ordered.startAfter(...values, id);
  }
  const snap = await ordered.limit(request.limit).get();
  const last = snap.docs[snap.size - 1];
  return {
    items: snap.docs.map(map),
    nextCursor:
      snap.size === request.limit && last
        ? encodeCursor(
            orderBy.map((o) => last.get(o.field)),
            last.id,
            request,
          )
        : null,
  };
}

/** A time bound in one stored form: epoch ms (documents not yet migrated) or a Timestamp. */
export type TimeBound = (ms: number) => unknown;

/**
 * `paginate` over a range of a time field stored in two forms while `migrate-listened-times` runs: a range filter
 * matches one type only, so `build` makes the query once per form (its bounds through `bound`), and the two run one
 * after the other in the field's order (every epoch-ms document is older than every Timestamp one; numbers sort
 * before Timestamps). A cursor of either form resumes there: the other form's query starts past it or is empty.
 * Both-forms reader: delete after migrate:listened-times has run in every project.
 */
export async function paginateTimeRange<R, T>(
  build: (bound: TimeBound) => FirebaseFirestore.Query<R>,
  orderBy: readonly OrderBy[],
  request: PageRequest,
  map: (doc: FirebaseFirestore.QueryDocumentSnapshot<R>) => T,
): Promise<Page<T>> {
  const forms: TimeBound[] = [...STORED_TIME_FORMS];
  if (orderBy[0]?.direction !== 'asc') forms.reverse();
  const first = await paginate(build(forms[0]), orderBy, request, map);
  if (first.nextCursor !== null) return first;
  const rest = await paginate(build(forms[1]), orderBy, { ...request, limit: request.limit - first.items.length }, map);
  return { items: [...first.items, ...rest.items], nextCursor: rest.nextCursor };
}
