import fs from 'node:fs';
import { firestoreApi } from '../firebase/firebase';

// The emulator serves any query; production refuses one that needs a composite index not deployed. While the test
// suite runs (FIRESTORE_QUERY_LOG=<file>), the shape of every query the code sends (collection, filters, order) is
// appended to that file once per distinct shape, and `npm run deploy:check` checks each against
// firestore.indexes.json (platform/core/deploy/indexes.ts).

export interface QueryShape {
  collection: string;
  collectionGroup: boolean;
  filters: Array<{ field: string; op: string }>;
  orderBy: Array<{ field: string; direction: 'ASCENDING' | 'DESCENDING' }>;
}

type ProtoFilter = {
  compositeFilter?: { op: string; filters: ProtoFilter[] };
  fieldFilter?: { field: { fieldPath: string }; op: string };
  unaryFilter?: { field: { fieldPath: string }; op: string };
};
interface StructuredQuery {
  from?: Array<{ collectionId?: string; allDescendants?: boolean }>;
  where?: ProtoFilter;
  orderBy?: Array<{ field: { fieldPath: string }; direction?: string }>;
}

function filtersOf(filter: ProtoFilter | undefined): QueryShape['filters'] {
  if (!filter) return [];
  if (filter.compositeFilter) return filter.compositeFilter.filters.flatMap(filtersOf);
  const single = filter.fieldFilter ?? filter.unaryFilter;
  return single ? [{ field: single.field.fieldPath, op: single.op }] : [];
}

/** The index-relevant shape of a structured query (values left out). */
export function shapeOf(query: StructuredQuery): QueryShape | undefined {
  const from = query.from?.[0];
  if (!from?.collectionId) return undefined;
  return {
    collection: from.collectionId,
    collectionGroup: from.allDescendants === true,
    filters: filtersOf(query.where),
    orderBy: (query.orderBy ?? []).map((o) => ({ field: o.field.fieldPath, direction: o.direction === 'DESCENDING' ? 'DESCENDING' : 'ASCENDING' })),
  };
}

let installed = false;

/** Records the shape of every query this process sends from now on (tests only). */
export function recordQueriesTo(file: string): void {
  if (installed) return;
  installed = true;
  const seen = new Set<string>();
  const proto = firestoreApi().Query.prototype as unknown as { toStructuredQuery(): StructuredQuery };
  const original = proto.toStructuredQuery;
  proto.toStructuredQuery = function recorded(this: unknown) {
    const structured = original.call(this);
    const shape = shapeOf(structured);
    if (shape) {
      const line = JSON.stringify(shape);
      if (!seen.has(line)) {
        seen.add(line);
        fs.appendFileSync(file, `${line}\n`);
      }
    }
    return structured;
  };
}
