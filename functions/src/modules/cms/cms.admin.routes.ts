import { z } from 'zod';
import { NotFoundError } from '../../platform/core/errors/app-error';
import { IdParamsSchema } from '../../platform/core/http/ids';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { PageQuerySchema } from '../../platform/kits/firestore/paginate';
import { stableId } from '../../platform/kits/ids/stable-id';
import { auditTrail, type ContentRecord, type VersionRecord } from '../../platform/kits/publishing/publishing';
import { iso } from '../../platform/kits/time/time';
import { appConfigKind, appConfigs } from './cms.app-config';
import { CMS_AUDIT } from './cms.collections';
import { adminView, CONTENT_KINDS, type AnyKind, type PublishedKind } from './cms.kinds';
import {
  AdminListQuerySchema,
  adminRecordSchema,
  AppConfigPatchSchema,
  AppConfigViewSchema,
  AuditEntrySchema,
  AuditQuerySchema,
  NoteBodySchema,
  PublishBodySchema,
  RollbackBodySchema,
  SurfaceParamsSchema,
  versionSchema,
  type AppConfigContent,
} from './cms.schemas';

// The operators' side: one set of routes per kind of record (create, list, read, edit the draft, publish, unpublish,
// roll back, versions, archive), the app config per surface (edit, publish, roll back, versions) and the audit trail.
// Administrators with the permission cms.manage only (403 PERMISSION_REQUIRED otherwise; other roles 403).

const ADMIN = { tag: 'cms' as const, auth: ['ADMIN'] as const, permission: 'cms.manage' as const };
const MOVES = 'Each move is recorded in the audit trail (GET /cms/admin/audit) with the administrator and the version.';
const page = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), nextCursor: z.string().nullable() });

type Params = { id: string } | { surface: string };
const idOf = (p: Params) => ('id' in p ? p.id : p.surface);
const actor = (auth: { userId: string } | undefined, note?: string) => ({ by: auth!.userId, now: Date.now(), note });

/** A record's versions; an unknown record is 404 (a singleton never edited has none yet). */
async function versionsPage<C extends Record<string, unknown>>(kind: PublishedKind<C>, id: string, query: { limit: number; cursor?: string }, caller: string) {
  const [record, versions] = await Promise.all([
    kind.initial ? undefined : kind.publisher.get(id),
    kind.publisher.versions(id, { ...query, query: `cms:versions:${id}`, caller }),
  ]);
  if (!kind.initial && !record) throw new NotFoundError('No such record');
  return { items: versions.items.map((v: VersionRecord<C>) => ({ ...v, content: kind.toView(v.content), at: iso(v.at) })), nextCursor: versions.nextCursor };
}

/** Publish, roll back and versions: the same three operations for every kind, the app config included. */
function publishingRoutes<C extends Record<string, unknown>>(
  names: { noun: string; Name: string; path: string },
  params: z.ZodType<Params>,
  kind: PublishedKind<C>,
  RecordSchema: z.ZodType,
  VersionSchema: z.ZodType,
): AnyRoute[] {
  const view = (record: ContentRecord<C>) => adminView(kind, record);
  return [
    defineRoute({
      ...ADMIN,
      method: 'post',
      path: `${names.path}/publish`,
      operationId: `adminPublishCms${names.Name}`,
      summary: `Publish the ${names.noun}’s draft`,
      description: `The draft becomes a new version and goes live. With \`revision\`: only if the draft is still the one reviewed (409 CMS_REVISION_CONFLICT). The draft already live answers the record as it is (a retry, or five at once, publish once). An archived one is 409 CMS_STATUS_CONFLICT. ${MOVES}`,
      errors: [404],
      codes: ['CMS_REVISION_CONFLICT', 'CMS_STATUS_CONFLICT'],
      request: { params, body: PublishBodySchema },
      response: { description: 'The record, PUBLISHED.', schema: RecordSchema },
      handler: async ({ auth, params, body }) =>
        view((await kind.publisher.publish(idOf(params), { ...actor(auth, body.note), revision: body.revision, initial: kind.initial })).record),
    }),
    defineRoute({
      ...ADMIN,
      method: 'post',
      path: `${names.path}/rollback`,
      operationId: `adminRollbackCms${names.Name}`,
      summary: `Make an earlier version of the ${names.noun} live again`,
      description: `The version’s content goes live as a new version (\`rollbackOf\` names it) and replaces the draft (with \`revision\`: only if nobody edited it since, 409 CMS_REVISION_CONFLICT). When that content is live already, nothing changes (the draft neither). 404 CMS_VERSION_NOT_FOUND for a version it never had; an archived one is 409 CMS_STATUS_CONFLICT. ${MOVES}`,
      errors: [404],
      codes: ['CMS_VERSION_NOT_FOUND', 'CMS_STATUS_CONFLICT', 'CMS_REVISION_CONFLICT'],
      request: { params, body: RollbackBodySchema },
      response: { description: 'The record, PUBLISHED.', schema: RecordSchema },
      handler: async ({ auth, params, body }) =>
        view((await kind.publisher.rollback(idOf(params), body.version, { ...actor(auth, body.note), revision: body.revision })).record),
    }),
    defineRoute({
      ...ADMIN,
      method: 'get',
      path: `${names.path}/versions`,
      operationId: `adminListCms${names.Name}Versions`,
      summary: `The ${names.noun}’s published versions`,
      description: 'Newest first: what was live, who published it, when, and the rollbacks.',
      errors: [404],
      request: { params, query: PageQuerySchema },
      response: { description: 'The versions.', schema: page(VersionSchema) },
      handler: ({ auth, params, query }) => versionsPage(kind, idOf(params), query, auth!.userId),
    }),
  ];
}

/** Unpublish, archive and restore of a kind's record. */
function statusRoutes(kind: AnyKind, base: string, RecordSchema: z.ZodType): AnyRoute[] {
  const noun = kind.kind;
  const view = (record: Parameters<typeof adminView>[1]) => adminView(kind, record);
  return [
    defineRoute({
      ...ADMIN,
      method: 'post',
      path: `${base}/:id/unpublish`,
      operationId: `adminUnpublishCms${kind.name}`,
      summary: `Take the ${noun} down`,
      description: `Apps stop seeing it; its draft and versions stay (publish or roll back to bring it back). Again: answered as it is. ${MOVES}`,
      errors: [404],
      codes: ['CMS_STATUS_CONFLICT'],
      request: { params: IdParamsSchema, body: NoteBodySchema },
      response: { description: 'The record, UNPUBLISHED.', schema: RecordSchema },
      handler: async ({ auth, params, body }) => view((await kind.publisher.unpublish(params.id, actor(auth, body.note))).record),
    }),
    defineRoute({
      ...ADMIN,
      method: 'delete',
      path: `${base}/:id`,
      operationId: `adminArchiveCms${kind.name}`,
      summary: `Archive the ${noun}`,
      description: `Only one that is not live (409 CMS_STATUS_CONFLICT while PUBLISHED: unpublish first). It stays readable here with its versions and audit trail. Again: answered as it is. ${MOVES}`,
      errors: [404],
      codes: ['CMS_STATUS_CONFLICT'],
      request: { params: IdParamsSchema },
      response: { description: 'The record, ARCHIVED.', schema: RecordSchema },
      handler: async ({ auth, params }) => view((await kind.publisher.archive(params.id, actor(auth))).record),
    }),
    defineRoute({
      ...ADMIN,
      method: 'post',
      path: `${base}/:id/restore`,
      operationId: `adminRestoreCms${kind.name}`,
      summary: `Bring an archived ${noun} back as a draft`,
      description: `Its draft, versions and trail stay; nothing is live until it is published again. Again: answered as it is; not archived: 409 CMS_STATUS_CONFLICT. ${MOVES}`,
      errors: [404],
      codes: ['CMS_STATUS_CONFLICT'],
      request: { params: IdParamsSchema },
      response: { description: 'The record, DRAFT.', schema: RecordSchema },
      handler: async ({ auth, params }) => view((await kind.publisher.restore(params.id, actor(auth))).record),
    }),
  ];
}

function kindRoutes(kind: AnyKind): AnyRoute[] {
  const base = `/cms/admin/${kind.segment}`;
  const noun = kind.kind;
  const RecordSchema = adminRecordSchema(kind.name, kind.view);
  const VersionSchema = versionSchema(kind.name, kind.view);
  const view = (record: Parameters<typeof adminView>[1]) => adminView(kind, record);
  const found = async (id: string) => {
    const record = await kind.publisher.get(id);
    if (!record) throw new NotFoundError(`No such ${noun}`);
    return record;
  };
  const listQuery = kind.surfaceField ? AdminListQuerySchema : AdminListQuerySchema.omit({ surface: true });
  const names = { noun, Name: kind.name, path: `${base}/:id` };
  return [
    defineRoute({
      ...ADMIN,
      method: 'post',
      path: base,
      operationId: `adminCreateCms${kind.name}`,
      summary: `Create a ${noun} (a draft)`,
      description: `${kind.idOf ? 'The slug is its id: a slug in use (any status) is 409 CMS_SLUG_TAKEN.' : 'With an Idempotency-Key the key names it: a retry answers the same draft (after the key’s 24 hours too).'} Images are your own READY uploads (422 CMS_IMAGE_INVALID). Nothing is public until it is published. ${MOVES}`,
      idempotent: true,
      codes: kind.idOf ? ['CMS_SLUG_TAKEN'] : ['CMS_IMAGE_INVALID'],
      request: { body: kind.body },
      response: { status: 201, description: 'The draft.', schema: RecordSchema },
      handler: async ({ auth, body, idempotencyKey }) => {
        const id =
          kind.idOf?.(body) ?? (idempotencyKey ? stableId({ scope: `cms.${noun}`, caller: auth!.userId, key: idempotencyKey }) : kind.publisher.newId());
        const content = await kind.content(auth!, body);
        return view(await kind.publisher.create(id, content, actor(auth), { replayOwn: !kind.idOf && idempotencyKey !== undefined }));
      },
    }),
    defineRoute({
      ...ADMIN,
      method: 'get',
      path: base,
      operationId: `adminListCms${kind.name}s`,
      summary: `The ${noun}s`,
      description: 'Most recently changed first; filters by status' + (kind.surfaceField ? ' and by the draft’s surface.' : '.'),
      request: { query: listQuery },
      response: { description: `The ${noun}s.`, schema: page(RecordSchema) },
      handler: async ({ auth, query }) => {
        const surface = (query as { surface?: string }).surface;
        const result = await kind.publisher.list(
          { limit: query.limit, cursor: query.cursor, query: `cms:${noun}:${query.status ?? '*'}:${surface ?? '*'}`, caller: auth!.userId },
          { status: query.status, draft: surface ? { surface } : {} },
        );
        return { items: result.items.map(view), nextCursor: result.nextCursor };
      },
    }),
    defineRoute({
      ...ADMIN,
      method: 'get',
      path: `${base}/:id`,
      operationId: `adminGetCms${kind.name}`,
      summary: `One ${noun}: its draft, what is live and the moves allowed`,
      errors: [404],
      request: { params: IdParamsSchema },
      response: { description: `The ${noun}.`, schema: RecordSchema },
      handler: async ({ params }) => view(await found(params.id)),
    }),
    defineRoute({
      ...ADMIN,
      method: 'patch',
      path: `${base}/:id`,
      operationId: `adminUpdateCms${kind.name}`,
      summary: `Edit the ${noun}’s draft`,
      description: `Fields sent replace the draft’s (what is live changes only when it is published). An unchanged draft writes nothing. \`revision\` (required) is the one you read: 409 CMS_REVISION_CONFLICT if someone edited it since, so two editors never overwrite each other. An archived one is 409 CMS_STATUS_CONFLICT (restore it first). Drafts are at most 256 KiB (413). ${MOVES}`,
      errors: [404],
      codes: ['CMS_REVISION_CONFLICT', 'CMS_STATUS_CONFLICT', ...(kind.idOf ? [] : (['CMS_IMAGE_INVALID'] as const))],
      request: { params: IdParamsSchema, body: kind.patch },
      response: { description: `The ${noun} after the edit.`, schema: RecordSchema },
      handler: async ({ auth, params, body }) => {
        await found(params.id);
        const change = await kind.change(auth!, body);
        return view(await kind.publisher.edit(params.id, { ...actor(auth), revision: body.revision }, change));
      },
    }),
    ...publishingRoutes(names, IdParamsSchema, kind, RecordSchema, VersionSchema),
    ...statusRoutes(kind, base, RecordSchema),
  ];
}

function appConfigRoutes(): AnyRoute[] {
  const RecordSchema = adminRecordSchema('AppConfig', AppConfigViewSchema);
  const params = SurfaceParamsSchema;
  const view = (record: ContentRecord<AppConfigContent>) => adminView(appConfigKind, record);
  const path = '/cms/admin/config/:surface';
  return [
    defineRoute({
      ...ADMIN,
      method: 'get',
      path,
      operationId: 'adminGetCmsAppConfig',
      summary: 'An app’s config: its draft and what is live',
      description: 'One record per surface. Never edited: the defaults (no flags, versions 0.0.0, no maintenance) at revision 1, nothing live.',
      request: { params },
      response: { description: 'The config.', schema: RecordSchema },
      handler: async ({ params: { surface } }) => view(await appConfigs.read(surface, appConfigKind.initial)),
    }),
    defineRoute({
      ...ADMIN,
      method: 'patch',
      path,
      operationId: 'adminUpdateCmsAppConfig',
      summary: 'Edit an app’s config draft',
      description: `Fields sent replace the draft’s (\`flags\` as a whole set). minVersion above latestVersion, or active maintenance without a message: 400. Apps see it once it is published. \`revision\` (required) is the one you read: 409 CMS_REVISION_CONFLICT if someone edited it since. ${MOVES}`,
      codes: ['CMS_REVISION_CONFLICT'],
      request: { params, body: AppConfigPatchSchema },
      response: { description: 'The config after the edit.', schema: RecordSchema },
      handler: async ({ auth, params: { surface }, body }) => view(await appConfigKind.edit(auth!, surface, body, Date.now())),
    }),
    ...publishingRoutes({ noun: 'app config', Name: 'AppConfig', path }, params, appConfigKind, RecordSchema, versionSchema('AppConfig', AppConfigViewSchema)),
  ];
}

export function cmsAdminRoutes(): AnyRoute[] {
  return [
    ...CONTENT_KINDS.flatMap(kindRoutes),
    ...appConfigRoutes(),
    defineRoute({
      ...ADMIN,
      method: 'get',
      path: '/cms/admin/audit',
      operationId: 'adminListCmsAudit',
      summary: 'Who created, edited, published, rolled back, unpublished or archived what',
      description: 'Newest first; one kind, one record (kind and entityId) or one administrator (by), or by with one of the others.',
      request: { query: AuditQuerySchema },
      response: { description: 'The audit trail.', schema: page(AuditEntrySchema) },
      handler: async ({ auth, query }) => {
        const filter = { kind: query.kind, entity: query.entityId ? `${query.kind}:${query.entityId}` : undefined, by: query.by };
        const result = await auditTrail(
          CMS_AUDIT,
          {
            limit: query.limit,
            cursor: query.cursor,
            query: `cms:audit:${filter.entity ?? filter.kind ?? '*'}:${filter.by ?? '*'}`,
            caller: auth!.userId,
          },
          filter,
        );
        return {
          items: result.items.map(({ entity: _entity, ...entry }) => ({
            ...entry,
            kind: entry.kind as z.output<typeof AuditEntrySchema>['kind'],
            at: iso(entry.at),
          })),
          nextCursor: result.nextCursor,
        };
      },
    }),
  ];
}
