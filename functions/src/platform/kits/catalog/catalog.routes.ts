import { z } from 'zod';
import { defineRoute, type AnyRoute } from '../../core/http/route';
import { DocumentIdSchema, IdParamsSchema } from '../../core/http/ids';
import type { AppConfig } from '../../core/config/config.schema';
import { radiusQuerySchema } from '../geo/geo';
import type { RateLimitRule } from '../../core/ratelimit/rate-limit';
import {
  CatalogAdminQuerySchema,
  CatalogBaseBodySchema,
  CatalogBasePatchSchema,
  CatalogBaseViewSchema,
  CatalogEventSchema,
  CatalogHideBodySchema,
  CatalogMineQuerySchema,
  CatalogNearbyQuerySchema,
  CatalogSearchQuerySchema,
} from './catalog.schemas';
import type { CatalogService, CatalogSpec } from './catalog.service';

/** The parts of a spec that shape its schemas. */
type SchemaSource = Pick<CatalogSpec, 'details' | 'filters' | 'schemaName' | 'maxRadiusM'> & {
  ownOperationFields?: readonly string[];
  partnerRequired?: boolean;
};

const schemasBySpec = new WeakMap<SchemaSource, ReturnType<typeof buildSchemas>>();

function buildSchemas(spec: SchemaSource) {
  const view = CatalogBaseViewSchema.extend(spec.details.shape).meta({ id: spec.schemaName });
  return {
    view,
    body: CatalogBaseBodySchema.extend({
      ...(spec.partnerRequired ? { partnerId: DocumentIdSchema.describe('The partner that manages it (you must be its owner or staff)') } : {}),
      ...spec.details.shape,
    }).meta({ id: `${spec.schemaName}Body` }),
    patch: CatalogBasePatchSchema.extend(
      spec.details.omit(Object.fromEntries((spec.ownOperationFields ?? []).map((k) => [k, true])) as Record<string, true> as never).partial().shape,
    )
      .refine((p) => Object.values(p).some((v) => v !== undefined), { message: 'name at least one field to change' })
      .meta({ id: `${spec.schemaName}Patch` }),
    page: z.object({ items: z.array(view), nextCursor: z.string().nullable() }).meta({ id: `${spec.schemaName}Page` }),
    nearbyQuery: CatalogNearbyQuerySchema.extend({ radiusM: radiusQuerySchema(spec.maxRadiusM), ...spec.filters.shape }),
  };
}

/** The zod shapes of a catalog (one object per spec, so OpenAPI names each once). */
export function catalogSchemas(spec: SchemaSource) {
  let schemas = schemasBySpec.get(spec);
  if (!schemas) {
    schemas = buildSchemas(spec);
    schemasBySpec.set(spec, schemas);
  }
  return schemas;
}

const MANAGERS = ['PARTNER_OWNER', 'PARTNER_STAFF', 'ADMIN'] as const;
/** The admin path of a route open to a record's managers and administrators. */
export const CATALOG_ADMIN_PATH = 'Administrators need the permission catalog.manage (403 PERMISSION_REQUIRED otherwise).';

/** Every nearby search of the map tab (all catalogs together), per signed-in caller; RATE_LIMITS scope `nearby`. */
export const NEARBY_RATE_LIMIT: RateLimitRule = { scope: 'nearby', limit: 120, windowSec: 60, per: 'user' };

/**
 * The eleven operations every catalog has: nearby, search, one record, a partner's list, the moderation list,
 * create, update, archive, hide, restore and the record's history. A vertical adds its own beside them.
 */
export function catalogRoutes<D extends z.ZodObject, F extends z.ZodObject>(
  service: CatalogService<D, F>,
  config: Pick<AppConfig, 'NEARBY_READ_BUDGET'>,
): AnyRoute[] {
  const spec = service.spec;
  const s = catalogSchemas(spec);
  const base = spec.basePath;
  // The managers' operations (their list, create, change, archive) under their own path when the spec names one.
  const manage = spec.managePath ?? base;
  const tag = spec.tag;
  const N = spec.nouns.charAt(0).toUpperCase() + spec.nouns.slice(1);
  const [one, many] = [spec.schemaName, spec.pluralName];
  return [
    defineRoute({
      method: 'get',
      path: `${base}/nearby`,
      operationId: `listNearby${many}`,
      tag,
      summary: `${N} near a point`,
      description: `Active ${spec.nouns} within radiusM (at most ${spec.maxRadiusM} m) of lat/lng, nearest first, each with distanceM; lat/lng must be numbers in range (400 otherwise). Pages by distance with nextCursor (a cursor of another query or caller is 400 INVALID_CURSOR). One request reads at most NEARBY_READ_BUDGET records: in a very dense area a page may hold fewer than limit items; follow nextCursor.`,
      auth: [],
      rateLimit: NEARBY_RATE_LIMIT,
      codes: ['INVALID_CURSOR', 'NEARBY_TOO_DENSE'],
      request: { query: s.nearbyQuery },
      response: { description: `A page of ${spec.nouns}, nearest first.`, schema: s.page },
      handler: ({ query, auth }) => service.nearby(query as never, auth!, { budget: config.NEARBY_READ_BUDGET }),
    }),
    defineRoute({
      method: 'get',
      path: `${base}/search`,
      operationId: `search${many}`,
      tag,
      summary: `Find ${spec.nouns} by name`,
      description:
        'Every word of q matches the start of a word of the name, case and Vietnamese diacritics ignored. Alphabetical. A page may hold fewer than limit items when q has several words; follow nextCursor.',
      auth: [],
      request: { query: CatalogSearchQuerySchema },
      response: { description: `Matching active ${spec.nouns}.`, schema: s.page },
      handler: ({ query, auth }) => service.search(query, auth!),
    }),
    defineRoute({
      method: 'get',
      path: `${manage}/mine`,
      operationId: `listMy${many}`,
      tag,
      summary: `${N} of one of my partners (any status)`,
      auth: ['PARTNER_OWNER', 'PARTNER_STAFF'],
      codes: ['CATALOG_NOT_MANAGER'],
      request: { query: CatalogMineQuerySchema },
      response: { description: 'Newest change first.', schema: s.page },
      handler: ({ query, auth }) => service.mine(query, auth!),
    }),
    defineRoute({
      method: 'get',
      path: `${base}/admin`,
      operationId: `adminList${many}`,
      tag,
      summary: `Moderation list of ${spec.nouns}`,
      auth: ['ADMIN'],
      permission: 'catalog.manage',
      request: { query: CatalogAdminQuerySchema },
      response: { description: 'Newest change first, by status and partner.', schema: s.page },
      handler: ({ query, auth }) => service.adminList(query, auth!),
    }),
    defineRoute({
      method: 'post',
      path: manage,
      operationId: `create${one}`,
      tag,
      summary: `Add a ${spec.noun}`,
      description: `${
        spec.partnerRequired
          ? `By the owner or staff of the partnerId (an approved partner); every ${spec.noun} belongs to a partner.`
          : `By the owner or staff of the partnerId (an approved partner), or by an administrator for a curated ${spec.noun} (no partnerId).`
      } Photos are your READY image uploads. ${CATALOG_ADMIN_PATH}`,
      auth: [...MANAGERS],
      permission: 'catalog.manage',
      idempotent: true,
      codes: ['CATALOG_NOT_MANAGER', 'CATALOG_PHOTO_INVALID', 'PERMISSION_REQUIRED'],
      request: { body: s.body },
      response: { status: 201, description: `The new ${spec.noun} (ACTIVE).`, schema: s.view },
      handler: ({ body, auth }) => service.create(auth!, body as never),
    }),
    defineRoute({
      method: 'get',
      path: `${base}/:id`,
      operationId: `get${one}`,
      tag,
      summary: `One ${spec.noun}`,
      description: 'Hidden and archived records are 404 except to their managers and administrators.',
      auth: [],
      errors: [404],
      request: { params: IdParamsSchema },
      response: { description: `The ${spec.noun}.`, schema: s.view },
      handler: ({ params, auth }) => service.get(params.id, auth!),
    }),
    defineRoute({
      method: 'patch',
      path: `${manage}/:id`,
      operationId: `update${one}`,
      tag,
      summary: `Change a ${spec.noun}`,
      description: `By its managers. Only the fields sent change; an archived record is read-only (409). ${CATALOG_ADMIN_PATH}`,
      auth: [...MANAGERS],
      permission: 'catalog.manage',
      errors: [404],
      codes: ['CATALOG_NOT_MANAGER', 'CATALOG_TRANSITION', 'CATALOG_PHOTO_INVALID', 'PERMISSION_REQUIRED'],
      request: { params: IdParamsSchema, body: s.patch },
      response: { description: `The ${spec.noun} after the change.`, schema: s.view },
      handler: ({ params, body, auth }) => service.update(params.id, auth!, body as never),
    }),
    defineRoute({
      method: 'delete',
      path: `${manage}/:id`,
      operationId: `archive${one}`,
      tag,
      summary: `Archive a ${spec.noun}`,
      description: `By its managers: it leaves every public list and becomes read-only. Its history is kept. ${CATALOG_ADMIN_PATH}`,
      auth: [...MANAGERS],
      permission: 'catalog.manage',
      errors: [404],
      codes: ['CATALOG_NOT_MANAGER', 'CATALOG_TRANSITION', 'PERMISSION_REQUIRED'],
      request: { params: IdParamsSchema },
      response: { description: `The archived ${spec.noun}.`, schema: s.view },
      handler: ({ params, auth }) => service.archive(params.id, auth!),
    }),
    defineRoute({
      method: 'post',
      path: `${base}/admin/:id/hide`,
      operationId: `adminHide${one}`,
      tag,
      summary: `Hide a ${spec.noun} (moderation)`,
      description: 'ACTIVE → HIDDEN with a reason its managers see; it leaves public lists.',
      auth: ['ADMIN'],
      permission: 'catalog.manage',
      errors: [404],
      codes: ['CATALOG_TRANSITION'],
      request: { params: IdParamsSchema, body: CatalogHideBodySchema },
      response: { description: `The hidden ${spec.noun}.`, schema: s.view },
      handler: ({ params, body, auth }) => service.hide(params.id, auth!, body.reason),
    }),
    defineRoute({
      method: 'post',
      path: `${base}/admin/:id/restore`,
      operationId: `adminRestore${one}`,
      tag,
      summary: `Restore a hidden ${spec.noun}`,
      auth: ['ADMIN'],
      permission: 'catalog.manage',
      errors: [404],
      codes: ['CATALOG_TRANSITION'],
      request: { params: IdParamsSchema },
      response: { description: `The ${spec.noun}, ACTIVE again.`, schema: s.view },
      handler: ({ params, auth }) => service.restore(params.id, auth!),
    }),
    defineRoute({
      method: 'get',
      path: `${base}/:id/events`,
      operationId: `list${one}Events`,
      tag,
      summary: `Status history of a ${spec.noun}`,
      description: `Hide, restore and archive moves (who, when, why), newest first; for its managers and administrators. "by" is an account id for administrators with catalog.manage; a partner’s managers see their own members’ ids and "ADMIN" for a moderator. ${CATALOG_ADMIN_PATH}`,
      auth: [...MANAGERS],
      permission: 'catalog.manage',
      errors: [404],
      codes: ['CATALOG_NOT_MANAGER', 'PERMISSION_REQUIRED'],
      request: { params: IdParamsSchema },
      response: { description: 'The moves.', schema: z.object({ events: z.array(CatalogEventSchema) }) },
      handler: async ({ params, auth }) => ({ events: await service.events(params.id, auth!) }),
    }),
  ];
}
