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
  /** Child items under each record (a store's products, a restaurant's dishes, a hotel's room types, a clinic's doctors). */
  items?: CatalogItemsSpec;
}

/**
 * A record's child items: partner-managed with the record's permissions (its managers; administrators with
 * catalog.manage), listed and paged by name, searchable by name, with optional stock. Routes, under the record:
 * GET `{basePath}/:id/{segment}`, PUT and DELETE `{basePath}/:id/{segment}/:{keyField}`, and with `nearbySearch`
 * "which record near me has it". Stored flat: one document `{recordId}_{key}` in `collection`, holding the record's
 * id in `parentField`, the key, the body's fields, `nameFolded`, `terms`, `inStock` (with stock), `updatedBy`, `updatedAt`.
 */
export interface CatalogItemsSpec<
  B extends z.ZodObject = z.ZodObject,
  V extends z.ZodObject = z.ZodObject,
  P extends string = string,
  N extends string = string,
> {
  collection: string;
  /** The path segment under a record: `products` gives `/pharmacy/stores/:id/products`. */
  segment: string;
  /** Field naming the record (`storeId`) and the item's key chosen by the managers (`sku`: letters, digits, . _ -). */
  parentField: string;
  keyField: string;
  /** Nouns in summaries and messages: the item's ("product") and the record's as its items name it ("store"). */
  noun: string;
  nouns: N;
  parentNoun: P;
  parentNouns: string;
  /** OpenAPI name of an item (`PharmacyProduct`: operations setPharmacyProduct, schemas …Body, …Page) and its plural. */
  schemaName: string;
  pluralName: string;
  /** PUT's body; it must have a `name` (the search terms are made from it). */
  body: B;
  /** The item's fields as shown, beside parentField, keyField and updatedAt (stored under the same keys). */
  view: V;
  /** What PUT sets, in its summary ("price and stock"). */
  putNote?: string;
  /** The body has `stock` (integer ≥ 0): `inStock` (stock > 0) is stored, filters lists and limits `nearbySearch`. */
  stock?: boolean;
  /** GET `path`: active records near a point having a matching item (in stock), nearest first, with those items. */
  nearbySearch?: { path: string; summary: string; /** A sentence closing the description. */ note?: string; /** Items shown per record. */ perRecord: number };
}

/** A catalog's spec with its field, filter and item types inferred. */
export function defineCatalog<D extends z.ZodObject, F extends z.ZodObject, I extends CatalogItemsSpec | undefined = undefined>(
  spec: CatalogSpec<D, F> & { items?: I },
): CatalogSpec<D, F> & { items: I } {
  return spec as CatalogSpec<D, F> & { items: I };
}

/** A child items declaration with its body and view types inferred. */
export function defineCatalogItems<B extends z.ZodObject, V extends z.ZodObject, P extends string, N extends string>(
  items: CatalogItemsSpec<B, V, P, N>,
): CatalogItemsSpec<B, V, P, N> {
  return items;
}
