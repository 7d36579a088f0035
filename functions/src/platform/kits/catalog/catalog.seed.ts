import type { SeedContext } from '../../core/module/maintenance';
import type { AuthContext } from '../../core/auth/access-token';
import { catalogSchemas } from './catalog.routes';
import type { z } from 'zod';
import { createCatalogItemsService } from './catalog.items';
import { createCatalogService, type CatalogDeps, type CatalogService } from './catalog.service';
import type { CatalogSpec } from './catalog.spec';

/**
 * Seeds a catalog's demo records (a module's seed, emulator only) through its service, each body validated by the
 * API's own schema, with the fixed ids of the fixture: created by the local administrator (curated records) or by
 * the demo partner's owner for the demo partner (partner-managed records).
 */
export async function seedCatalog<D extends z.ZodObject, F extends z.ZodObject>(
  ctx: SeedContext,
  label: string,
  service: CatalogService<D, F>,
  fixture: string,
  by: 'ADMIN' | 'PARTNER',
): Promise<void> {
  const f = ctx.fixtures as { DEV_ADMIN: { id: string }; DEMO_PARTNER: { id: string; userId: string } } & Record<string, unknown>;
  const records = f[fixture] as Array<{ id: string } & Record<string, unknown>>;
  const caller: Pick<AuthContext, 'userId' | 'roles'> =
    by === 'ADMIN' ? { userId: f.DEV_ADMIN.id, roles: ['USER', 'ADMIN'] } : { userId: f.DEMO_PARTNER.userId, roles: ['USER', 'PARTNER_OWNER'] };
  const { body } = catalogSchemas(service.spec);
  for (const { id, ...fields } of records) {
    const parsed = body.parse({ ...fields, ...(by === 'PARTNER' ? { partnerId: f.DEMO_PARTNER.id } : {}) });
    await service.create(caller, parsed as Parameters<typeof service.create>[1], { id });
  }
  ctx.log(`seed: ${label}: ${records.length}`);
}

/** A demo record of a partner-managed catalog with its child items (a hotel and its room types, a clinic and its doctors). */
export interface SeedRecord {
  id: string;
  fields: Record<string, unknown>;
  items?: Array<{ key: string } & Record<string, unknown>>;
}

/**
 * Seeds partner-managed demo records with their child items (emulator only), by the demo partner's owner on the
 * seed's clock, each body validated by the API's own schemas: fixed ids, so every seed writes the same documents;
 * a record already there is left as it is (its items are put again).
 */
export async function seedPartnerCatalog<D extends z.ZodObject, F extends z.ZodObject>(
  ctx: SeedContext,
  label: string,
  spec: CatalogSpec<D, F>,
  deps: CatalogDeps,
  rows: readonly SeedRecord[],
): Promise<void> {
  const { DEMO_PARTNER: partner } = ctx.fixtures as { DEMO_PARTNER: { id: string; userId: string } };
  const owner = { userId: partner.userId, roles: ['USER' as const, 'PARTNER_OWNER' as const] };
  const records = createCatalogService(spec, { ...deps, now: () => ctx.now });
  const items = spec.items && createCatalogItemsService(spec.items, records as never, () => ctx.now);
  const { body } = catalogSchemas(spec);
  let count = 0;
  for (const row of rows) {
    if (!(await records.getRecord(row.id)))
      await records.create(owner, body.parse({ ...row.fields, partnerId: partner.id }) as Parameters<typeof records.create>[1], { id: row.id });
    await Promise.all((row.items ?? []).map(({ key, ...fields }) => items!.put(row.id, key, owner, spec.items!.body.parse(fields))));
    count += row.items?.length ?? 0;
  }
  ctx.log(`seed: ${label}: ${rows.length}${spec.items ? `, ${spec.items.nouns}: ${count}` : ''}`);
}
