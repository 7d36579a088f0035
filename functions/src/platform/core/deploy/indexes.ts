import type { QueryShape } from './query-log';

// Which recorded queries production would refuse for want of a composite index (firestore.indexes.json). The rules
// follow Firestore's: single-field indexes (automatic) serve a query on one field, and equality filters on several
// fields without an order (index merging); anything that orders or ranges on top of other filters needs a composite
// index whose fields are the equality fields first (any order), then the order fields with their directions (or all
// of them reversed). Array membership counts as an equality on a CONTAINS field, kept apart from merging to be safe:
// an extra index costs storage, a missing one an outage.

export interface IndexField {
  fieldPath: string;
  order?: 'ASCENDING' | 'DESCENDING';
  arrayConfig?: 'CONTAINS';
}
export interface CompositeIndex {
  collectionGroup: string;
  queryScope: 'COLLECTION' | 'COLLECTION_GROUP';
  fields: IndexField[];
}

const EQUALITY = new Set(['EQUAL', 'IN', 'IS_NULL', 'IS_NAN']);
const MEMBERSHIP = new Set(['ARRAY_CONTAINS', 'ARRAY_CONTAINS_ANY']);
const NAME = '__name__';

type Ordered = { field: string; direction: 'ASCENDING' | 'DESCENDING' };

/** The composite index a query needs, or undefined when single-field indexes serve it. */
export function requiredIndex(query: QueryShape): { equality: string[]; contains: string[]; ordered: Ordered[] } | undefined {
  const equality = [...new Set(query.filters.filter((f) => EQUALITY.has(f.op)).map((f) => f.field))];
  const contains = [...new Set(query.filters.filter((f) => MEMBERSHIP.has(f.op)).map((f) => f.field))];
  const ranges = [...new Set(query.filters.filter((f) => !EQUALITY.has(f.op) && !MEMBERSHIP.has(f.op)).map((f) => f.field))];
  // An inequality orders by its field first (Firestore adds it when the query does not); equality fields need no order.
  const ordered: Ordered[] = [];
  for (const o of query.orderBy) if (!ordered.some((x) => x.field === o.field)) ordered.push(o);
  for (const field of ranges) if (!ordered.some((x) => x.field === field)) ordered.push({ field, direction: 'ASCENDING' });
  const order = ordered.filter((o) => o.field !== NAME && !equality.includes(o.field));
  const fields = new Set([...equality, ...contains, ...order.map((o) => o.field)]);
  if (fields.size <= 1 && contains.length + equality.length <= 1) return undefined; // one field: its single-field index
  if (order.length === 0 && contains.length === 0) return undefined; // equalities only: merged single-field indexes
  return { equality, contains, ordered: order };
}

function flip(direction: Ordered['direction']): Ordered['direction'] {
  return direction === 'ASCENDING' ? 'DESCENDING' : 'ASCENDING';
}

/** Whether one declared index serves the query's need. */
export function indexServes(index: CompositeIndex, query: QueryShape, need: NonNullable<ReturnType<typeof requiredIndex>>): boolean {
  if (index.collectionGroup !== query.collection) return false;
  if ((index.queryScope === 'COLLECTION_GROUP') !== query.collectionGroup) return false;
  const fields = index.fields.filter((f) => f.fieldPath !== NAME);
  const prefixSize = need.equality.length + need.contains.length;
  if (fields.length !== prefixSize + need.ordered.length) return false;
  const prefix = fields.slice(0, prefixSize);
  const prefixOk =
    need.equality.every((field) => prefix.some((f) => f.fieldPath === field && f.order !== undefined)) &&
    need.contains.every((field) => prefix.some((f) => f.fieldPath === field && f.arrayConfig === 'CONTAINS'));
  if (!prefixOk) return false;
  const rest = fields.slice(prefixSize);
  const same = need.ordered.every((o, i) => rest[i].fieldPath === o.field && rest[i].order === o.direction);
  const reversed = need.ordered.every((o, i) => rest[i].fieldPath === o.field && rest[i].order === flip(o.direction));
  return same || reversed;
}

/** The recorded queries no declared index serves, each with the index it needs (in firestore.indexes.json form). */
export function missingIndexes(queries: QueryShape[], indexes: CompositeIndex[]): Array<{ query: QueryShape; needs: CompositeIndex }> {
  const missing: Array<{ query: QueryShape; needs: CompositeIndex }> = [];
  for (const query of queries) {
    const need = requiredIndex(query);
    if (!need || indexes.some((index) => indexServes(index, query, need))) continue;
    missing.push({
      query,
      needs: {
        collectionGroup: query.collection,
        queryScope: query.collectionGroup ? 'COLLECTION_GROUP' : 'COLLECTION',
        fields: [
          ...need.equality.map((fieldPath) => ({ fieldPath, order: 'ASCENDING' as const })),
          ...need.contains.map((fieldPath) => ({ fieldPath, arrayConfig: 'CONTAINS' as const })),
          ...need.ordered.map((o) => ({ fieldPath: o.field, order: o.direction })),
        ],
      },
    });
  }
  return missing;
}
