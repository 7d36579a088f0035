import { z } from 'zod';
import type { AppConfig } from '../../core/config/config.schema';
import { defineRoute, type AnyRoute } from '../../core/http/route';
import { DeletedSchema, DocumentIdSchema, IdParamsSchema } from '../../core/http/ids';
import { BooleanQuerySchema } from '../../core/http/query';
import { PageQuerySchema } from '../firestore/paginate';
import { NearbyQuerySchema, radiusQuerySchema } from '../geo/geo';
import { IsoTimeSchema } from '../time/time.schemas';
import { CATALOG_ADMIN_PATH, catalogSchemas, NEARBY_RATE_LIMIT } from './catalog.routes';
import type { CatalogItemsService, ItemsListQuery, ItemsSearchQuery } from './catalog.items';
import type { CatalogItemsSpec, CatalogSpec } from './catalog.spec';

/** An item's key, chosen by the record's managers (a SKU, a room type code, a doctor's id in the clinic). */
export const ItemKeySchema = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1 to 64 letters, digits, ".", "_" or "-"');

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const schemasBySpec = new WeakMap<CatalogItemsSpec, ReturnType<typeof buildItemSchemas>>();

function buildItemSchemas(parent: Pick<CatalogSpec, 'details' | 'filters' | 'schemaName' | 'maxRadiusM'>, items: CatalogItemsSpec) {
  const view = z
    .object({ [items.parentField]: z.string(), [items.keyField]: z.string(), ...items.view.shape, updatedAt: IsoTimeSchema })
    .meta({ id: items.schemaName });
  return {
    params: z.object({ id: DocumentIdSchema, [items.keyField]: ItemKeySchema }),
    body: items.body.meta({ id: `${items.schemaName}Body` }),
    view,
    page: z.object({ items: z.array(view), nextCursor: z.string().nullable() }).meta({ id: `${items.schemaName}Page` }),
    listQuery: PageQuerySchema.extend({
      q: z.string().trim().min(2).max(60).optional().describe(`Words of the ${items.noun} name (diacritics ignored)`),
      ...(items.availability
        ? { inStock: BooleanQuerySchema.optional().describe(`true: only ${items.nouns} that can be had now (available${items.stock ? ', stock not 0' : ''})`) }
        : items.stock
          ? { inStock: BooleanQuerySchema.optional() }
          : {}),
    }),
    searchQuery: NearbyQuerySchema.extend({
      radiusM: radiusQuerySchema(parent.maxRadiusM),
      q: z.string().trim().min(2).max(60).describe(`Words of the ${items.noun} name`),
      limit: z.coerce
        .number()
        .int()
        .min(1)
        .max(50)
        .default(10)
        .describe(`${cap(items.parentNouns)} at most`),
    }),
    withItems: z
      .object({ [items.parentNoun]: catalogSchemas(parent).view, [items.nouns]: z.array(view) })
      .meta({ id: `${parent.schemaName}With${cap(items.nouns)}` }),
  };
}

/** The zod shapes of a catalog's items (one object per spec, so OpenAPI names each once). */
export function catalogItemSchemas(parent: Pick<CatalogSpec, 'details' | 'filters' | 'schemaName' | 'maxRadiusM'>, items: CatalogItemsSpec) {
  let schemas = schemasBySpec.get(items);
  if (!schemas) {
    schemas = buildItemSchemas(parent, items);
    schemasBySpec.set(items, schemas);
  }
  return schemas;
}

const MANAGERS = ['PARTNER_OWNER', 'PARTNER_STAFF', 'ADMIN'] as const;

/** What PUT's description says of stock, photos and the cap. */
function itemsPutNotes(items: CatalogItemsSpec): string {
  const notes = [
    items.stock === 'optional' ? 'stock null: not counted; 0 marks it out of stock.' : items.stock ? 'stock 0 marks it out of stock.' : '',
    items.photos ? 'photoIds are your READY image uploads (photos already on it stay).' : '',
    items.maxPerRecord ? `At most ${items.maxPerRecord} per ${items.parentNoun} (409 CONFLICT for one more).` : '',
  ];
  return notes
    .filter(Boolean)
    .map((n) => ` ${n}`)
    .join('');
}

/** The nearby search by item ("which pharmacy near me has it"), when the items declare one. */
export function catalogItemsSearchRoute(service: CatalogItemsService, config: Pick<AppConfig, 'NEARBY_READ_BUDGET'>): AnyRoute | undefined {
  const { items } = service;
  const search = items.nearbySearch;
  if (!search) return undefined;
  const parent = service.records.spec;
  const s = catalogItemSchemas(parent, items);
  return defineRoute({
    method: 'get',
    path: search.path,
    operationId: `search${items.pluralName}`,
    tag: parent.tag,
    summary: search.summary,
    description: `Every word of q matches the start of a word of the ${items.noun} name (diacritics ignored). ${cap(items.parentNouns)} within radiusM, nearest first, each with its matching ${items.nouns} (at most ${search.perRecord}). lat/lng must be numbers (400). One request reads at most NEARBY_READ_BUDGET documents (the ${items.parentNouns} nearest first, then their ${items.stock ? 'stock lines' : items.nouns}): in a very dense area the farther ${items.parentNouns} are left out.${search.note ? ` ${search.note}` : ''}`,
    auth: [],
    rateLimit: NEARBY_RATE_LIMIT,
    request: { query: s.searchQuery },
    response: { description: `${cap(items.parentNouns)} with the matching ${items.nouns}.`, schema: z.object({ items: z.array(s.withItems) }) },
    handler: async ({ query, auth }) => ({
      items: (await service.searchNearby(query as ItemsSearchQuery, auth!, { budget: config.NEARBY_READ_BUDGET })).items,
    }),
  });
}

/** A record's items: the list (public, as the record is), put and remove (its managers). */
export function catalogItemsRoutes(service: CatalogItemsService): AnyRoute[] {
  const { items } = service;
  const parent = service.records.spec;
  const s = catalogItemSchemas(parent, items);
  const path = `${parent.basePath}/:id/${items.segment}`;
  const key = (params: Record<string, string>) => params[items.keyField];
  return [
    defineRoute({
      method: 'get',
      path,
      operationId: `list${items.pluralName}`,
      tag: parent.tag,
      summary: `${cap(items.nouns)} of a ${items.parentNoun}`,
      auth: [],
      errors: [404],
      request: { params: IdParamsSchema, query: s.listQuery },
      description: items.managerFields?.length
        ? `${items.managerFields.join(', ')}: shown only to the ${items.parentNoun}’s managers and administrators with catalog.manage.`
        : undefined,
      response: { description: items.stock ? 'Alphabetical, with stock.' : 'Alphabetical.', schema: s.page },
      handler: ({ params, query, auth }) => service.list(params.id, auth!, query as ItemsListQuery),
    }),
    defineRoute({
      method: 'put',
      path: `${path}/:${items.keyField}`,
      operationId: `set${items.schemaName}`,
      tag: parent.tag,
      summary: `Add or replace a ${items.noun} of a ${items.parentNoun}${items.putNote ? ` (${items.putNote})` : ''}`,
      description: `By the ${items.parentNoun}’s managers; the ${items.keyField} is yours (letters, digits, . _ -).${itemsPutNotes(items)} ${CATALOG_ADMIN_PATH}`,
      auth: [...MANAGERS],
      permission: 'catalog.manage',
      errors: [404],
      codes: ['CATALOG_NOT_MANAGER', 'CATALOG_TRANSITION', 'PERMISSION_REQUIRED', ...(items.photos ? (['CATALOG_PHOTO_INVALID'] as const) : [])],
      request: { params: s.params, body: s.body },
      response: { description: `The ${items.noun} as stored.`, schema: s.view },
      handler: ({ params, body, auth }) => service.put(params.id, key(params), auth!, body),
    }),
    defineRoute({
      method: 'delete',
      path: `${path}/:${items.keyField}`,
      operationId: `remove${items.schemaName}`,
      tag: parent.tag,
      summary: `Remove a ${items.noun} from a ${items.parentNoun}`,
      description: CATALOG_ADMIN_PATH,
      auth: [...MANAGERS],
      permission: 'catalog.manage',
      errors: [404],
      codes: ['CATALOG_NOT_MANAGER', 'CATALOG_TRANSITION', 'PERMISSION_REQUIRED'],
      request: { params: s.params },
      response: { description: 'Removed.', schema: DeletedSchema },
      handler: ({ params, auth }) => service.remove(params.id, key(params), auth!),
    }),
  ];
}
