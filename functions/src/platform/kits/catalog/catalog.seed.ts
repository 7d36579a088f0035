import type { SeedContext } from '../../core/module/maintenance';
import type { AuthContext } from '../../core/auth/access-token';
import { catalogSchemas } from './catalog.routes';
import type { z } from 'zod';
import type { CatalogService } from './catalog.service';

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
