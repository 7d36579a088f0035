import type { z } from 'zod';
import type { ApiTag } from '../../core/openapi/tags';
import type { CatalogRecord } from './catalog.model';
import type { NearbyFields } from './catalog.repo';

// A catalog's spec: light on purpose (types and one identity function), so that module definitions naming a
// catalog's collection load nothing of the kit's code at cold start.

/** What a vertical adds to the kit: where its records live, its own fields and its nearby filters. */
export interface CatalogSpec<D extends z.ZodObject = z.ZodObject, F extends z.ZodObject = z.ZodObject> {
  tag: ApiTag;
  collection: string;
  /** e.g. `/places`, `/pharmacy/stores` */
  basePath: string;
  /**
   * Where the managers' operations live when not under basePath (`/rentals/partner/listings`: their list, create,
   * change and archive); reads and moderation stay under basePath.
   */
  managePath?: string;
  /** A manager's operation by another partner answers 404, as for a record that does not exist (a landlord's listing), not 403. */
  hideFromOthers?: boolean;
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
  /** Whether a record passes the filters (the query's point is there too: a delivery radius reaching it). */
  keep?(record: NearbyFields<z.output<D>>, filters: z.output<F> & { lat: number; lng: number }): boolean;
  /** A sort key before distance for this query (e.g. price); records without one are left out. */
  rankBy?(filters: z.output<F>): ((details: z.output<D>) => number | undefined) | undefined;
  /** Fields set at creation and then changed only by the vertical's own operation (prices with history): not in PATCH. */
  ownOperationFields?: ReadonlyArray<keyof z.output<D> & string>;
  /** Rules across fields of the merged details (throw a ValidationError). */
  check?(details: z.output<D>): void;
  /** Every record belongs to a partner (stores that sell): no curated records, `partnerId` is required at creation. */
  partnerRequired?: boolean;
  /** Child items under each record (a store's products, a restaurant's dishes, a hotel's room types, a clinic's doctors). */
  items?: CatalogItemsSpec;
}

/**
 * A record's child items: partner-managed with the record's permissions (its managers; administrators with
 * catalog.manage), listed and paged by name, searchable by name, with optional stock. Routes, under the record:
 * GET `{basePath}/:id/{segment}`, PUT and DELETE `{basePath}/:id/{segment}/:{keyField}`, and with `nearbySearch`
 * "which record near me has it". Stored flat: one document `{recordId}_{key}` in `collection`, holding the record's
 * id in `parentField`, the key, the body's fields, `nameFolded`, `terms`, `inStock` (with stock or availability), `photos` (with photos), `updatedBy`, `updatedAt`.
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
  /**
   * `true`: the body has `stock` (integer ≥ 0); `'optional'`: integer ≥ 0 or null (not counted: a dish cooked to
   * order). `inStock` (not counted, or stock > 0) is stored, filters lists and limits `nearbySearch`; counted stock
   * is taken and given back in the caller's transaction (`takeStock`, `txGiveBack`).
   */
  stock?: boolean | 'optional';
  /** The body has `available` (boolean, the managers' toggle, also in bulk): an unavailable item is not `inStock`. */
  availability?: boolean;
  /**
   * The body has `photoIds` (the caller's READY image uploads; photos already on the item stay without a new check),
   * stored and shown as `photos` ({ id, url }): declare `photos` in the view.
   */
  photos?: boolean;
  /** View fields shown only to the record's managers and administrators (counted stock); declare them optional in the view. */
  managerFields?: readonly string[];
  /** At most this many items per record (checked when a new key is put; parallel additions may pass it by a few). */
  maxPerRecord?: number;
  /** Rules between an item and its record, in the put's transaction (a menu section the record names): throw a ValidationError. */
  check?(item: z.output<B>, record: CatalogRecord): void;
  /** GET `path`: active records near a point having a matching item (in stock), nearest first, with those items. */
  nearbySearch?: { path: string; summary: string; /** A sentence closing the description. */ note?: string; /** Items shown per record. */ perRecord: number };
}

/** A catalog's spec with its field, filter and item types inferred. */
export function defineCatalog<D extends z.ZodObject, F extends z.ZodObject, I extends CatalogItemsSpec | undefined = undefined>(
  spec: CatalogSpec<D, F> & { items?: I },
): Omit<CatalogSpec<D, F>, 'items'> & { items: I } {
  // `items` typed as declared (not intersected with the general CatalogItemsSpec): its service keeps the body's types.
  return spec as Omit<CatalogSpec<D, F>, 'items'> & { items: I };
}

/** A child items declaration with its body and view types inferred. */
export function defineCatalogItems<B extends z.ZodObject, V extends z.ZodObject, P extends string, N extends string>(
  items: CatalogItemsSpec<B, V, P, N>,
): CatalogItemsSpec<B, V, P, N> {
  return items;
}
