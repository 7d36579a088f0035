import type { SeedContext } from '../../platform/core/module/maintenance';
import { createCatalogItemsService } from '../../platform/kits/catalog/catalog.items';
import { catalogSchemas } from '../../platform/kits/catalog/catalog.routes';
import { createCatalogService } from '../../platform/kits/catalog/catalog.service';
import { partnerCatalogDeps } from '../partners';
import { merchantsCatalog } from './merchants.catalog';
import { MerchantItemBodySchema } from './merchants.schemas';
import { DEMO_MENUS, DEMO_MERCHANTS } from './merchants.seed-data';

// The demo merchants and their menus (emulator only), run by the demo partner's owner through the kit's services
// on the seed's fixed clock, each body validated by the API's own schema. A second run writes the same documents:
// a merchant already there is kept, its items are put again as they were.
export async function seedMerchants(ctx: SeedContext): Promise<void> {
  const { DEMO_PARTNER: partner } = ctx.fixtures as { DEMO_PARTNER: { id: string; userId: string } };
  const owner = { userId: partner.userId, roles: ['USER' as const, 'PARTNER_OWNER' as const] };
  const records = createCatalogService(merchantsCatalog, { ...partnerCatalogDeps, now: () => ctx.now });
  const items = createCatalogItemsService(merchantsCatalog.items, records as never, () => ctx.now);
  const { body } = catalogSchemas(merchantsCatalog);
  let lines = 0;
  for (const merchant of DEMO_MERCHANTS) {
    if (!(await records.getRecord(merchant.id)))
      await records.create(owner, body.parse({ ...merchant.fields, partnerId: partner.id }) as Parameters<typeof records.create>[1], { id: merchant.id });
    await Promise.all(DEMO_MENUS[merchant.menu].items.map(({ key, ...fields }) => items.put(merchant.id, key, owner, MerchantItemBodySchema.parse(fields))));
    lines += DEMO_MENUS[merchant.menu].items.length;
  }
  ctx.log(`seed: merchants: ${DEMO_MERCHANTS.length}, menu items: ${lines}`);
}
