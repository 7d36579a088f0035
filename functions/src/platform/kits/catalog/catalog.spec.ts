import type { z } from 'zod';
import type { ApiTag } from '../../core/openapi/tags';
import type { NearbyFields } from './catalog.repo';

// A catalog's spec: light on purpose (types and one identity function), so that module definitions naming a
// catalog's collection load nothing of the kit's code at cold start.

/** What a vertical adds to the kit: where its records live, its own fields and its nearby filters. */
export interface CatalogSpec<D extends z.ZodObject = z.ZodObject, F extends z.ZodObject = z.ZodObject> {
  tag: ApiTag;
  collection: string;
  /** e.g. `/places`, `/pharmacy/stores` */
  basePath: string;
  /** Singular and plural nouns for summaries and messages ("place", "places"). */
  noun: string;
  nouns: string;
  /** OpenAPI component name of the record ("Place"). */
  schemaName: string;
  /** Its plural, naming the kit's operations (`listNearbyPlaces`, `searchPlaces`; `createPlace` from schemaName). */
  pluralName: string;
  /** The vertical's fields (body and view; stored under `details`). No `.default()`: PATCH would apply them. */
  details: D;
  /** Values of optional details fields a new record starts with. */
  detailDefaults?: Partial<z.output<D>>;
  /** Largest `radiusM` of `nearby` (a larger one is 400): how far a user of this vertical looks. */
  maxRadiusM: number;
  /** Extra `nearby` query fields (all optional). */
  filters: F;
  keep?(record: NearbyFields<z.output<D>>, filters: z.output<F>): boolean;
  /** A sort key before distance for this query (e.g. price); records without one are left out. */
  rankBy?(filters: z.output<F>): ((details: z.output<D>) => number | undefined) | undefined;
  /** Fields set at creation and then changed only by the vertical's own operation (prices with history): not in PATCH. */
  ownOperationFields?: ReadonlyArray<keyof z.output<D> & string>;
  /** Rules across fields of the merged details (throw a ValidationError). */
  check?(details: z.output<D>): void;
}

/** A catalog's spec with its field and filter types inferred. */
export function defineCatalog<D extends z.ZodObject, F extends z.ZodObject>(spec: CatalogSpec<D, F>): CatalogSpec<D, F> {
  return spec;
}
