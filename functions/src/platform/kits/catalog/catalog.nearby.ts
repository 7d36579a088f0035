import type { z } from 'zod';
import { UnprocessableError } from '../../core/errors/app-error';
import { decodeCursor, encodeCursor, invalidCursor, type Page } from '../firestore/paginate';
import type { NearbyQuery } from '../geo/geo';
import { nearbyByCells } from '../geo/cell-index';
import { isNearbyRing, type NearbyPosition } from '../geo/nearby-page';
import type { Caller } from './catalog.access';
import type { CatalogRepo, NearbyFields } from './catalog.repo';
import type { CatalogSpec } from './catalog.spec';
import { isOpenAt } from './hours';

export type NearbyQueryOf<F extends z.ZodObject> = NearbyQuery & { openNow?: boolean; cursor?: string } & z.output<F>;

/**
 * A catalog's `nearby`: active records within the radius that pass the filters, nearest first (the geo kit's cell
 * index, read by id under the read budget; the cursor holds the last record read's distance and id). With a rank (e.g. price), the
 * circle is read within the budget and ranked, then distance, then id: in an area denser than the budget, the ranking
 * covers the records up to the distance the budget reached. `reads` (documents read) is for the bench, not the API.
 */
export function catalogNearby<D extends z.ZodObject, F extends z.ZodObject, V>(
  spec: CatalogSpec<D, F>,
  repo: CatalogRepo<z.output<D>>,
  view: (record: NearbyFields<z.output<D>>, at: number, distanceM?: number) => V,
) {
  type Near = NearbyFields<z.output<D>>;
  return async function nearby(
    query: NearbyQueryOf<F>,
    caller: Caller,
    options: { budget: number; at: number; stuckEnds?: boolean },
  ): Promise<Page<V> & { reads: number }> {
    const t = options.at;
    const { cursor, limit, ...shape } = query;
    const request = { query: `${spec.collection}:nearby:${JSON.stringify(shape)}`, caller: caller.userId };
    const rank = spec.rankBy?.(query);
    const scan = {
      center: query,
      radiusM: query.radiusM,
      budget: options.budget,
      readCells: repo.cells,
      readRecords: (ids: readonly string[]) => repo.nearbyByIds(ids),
      keep: (r: Near) => r.status === 'ACTIVE' && (!query.openNow || isOpenAt(r.hours, t) === true) && (spec.keep?.(r, query) ?? true),
    };
    if (!rank) {
      const found = await nearbyByCells({ ...scan, limit, after: cursor ? nearbyPosition(cursor, request) : undefined });
      // A caller paging with what is left of its own budget (an items search) ends its list there instead.
      if (found.stuck && options.stuckEnds) return { items: [], nextCursor: null, reads: found.reads };
      if (found.stuck) throw tooDense();
      return {
        items: found.items.map((f) => view(f.item, t, f.distanceM)),
        nextCursor: found.next ? encodeCursor([found.next.distanceM, found.next.ring ?? ''], found.next.id, request) : null,
        reads: found.reads,
      };
    }
    const found = await nearbyByCells({ ...scan, limit: Number.POSITIVE_INFINITY });
    const ranked = found.items
      .map((f) => ({ ...f, keys: [rank(f.item.details), f.distanceM] }))
      .filter((f): f is typeof f & { keys: number[] } => f.keys.every((k) => typeof k === 'number'))
      .sort((a, b) => compareKeys(a.keys, a.item.id, b.keys, b.item.id));
    let start = 0;
    if (cursor) {
      const after = decodeCursor(cursor, request, 2);
      if (!after.values.every((v) => typeof v === 'number')) throw invalidCursor();
      const keys = after.values as number[];
      start = ranked.findIndex((f) => compareKeys(f.keys, f.item.id, keys, after.id) > 0);
      if (start < 0) start = ranked.length;
    }
    const page = ranked.slice(start, start + limit);
    const last = page.at(-1);
    return {
      items: page.map((f) => view(f.item, t, f.distanceM)),
      nextCursor: last && start + limit < ranked.length ? encodeCursor(last.keys, last.item.id, request) : null,
      reads: found.reads,
    };
  };
}

const tooDense = () =>
  new UnprocessableError('The area is too dense for one request: the search spent its reads before reaching the next record').withCode('NEARBY_TOO_DENSE');

/** A nearby cursor's position: [distance, a ring (cursors from before the cell index; now empty)] and the last id (400 when forged). */
function nearbyPosition(cursor: string, request: { query: string; caller: string }): NearbyPosition {
  const { values, id } = decodeCursor(cursor, request, 2);
  const [distanceM, ring] = values;
  if (typeof distanceM !== 'number' || !(distanceM >= 0) || typeof ring !== 'string' || !isNearbyRing(ring)) throw invalidCursor();
  return { distanceM, id, ring };
}

function compareKeys(a: readonly number[], aId: string, b: readonly number[], bId: string): number {
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return a[i] - b[i];
  return aId < bId ? -1 : aId > bId ? 1 : 0;
}
