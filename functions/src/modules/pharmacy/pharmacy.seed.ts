import type { SeedContext } from '../../platform/core/module/maintenance';
import { seedCatalog } from '../../platform/kits/catalog/catalog.seed';
import { pharmacyCatalog, pharmacyProducts, pharmacyStores } from './pharmacy.catalog';

type Fixtures = {
  DEMO_PARTNER: { userId: string };
  DEMO_PHARMACY_STORES: Array<{ id: string }>;
  DEMO_PRODUCTS: Array<{ sku: string } & Record<string, unknown>>;
  demoStock(store: number, product: number): number;
};

// Pharmacy stores managed by the demo partner, each with the demo products in stock (emulator only; the records of
// scripts/lib/demo-map.mjs).
export async function seedPharmacy(ctx: SeedContext): Promise<void> {
  await seedCatalog(ctx, 'pharmacy stores', pharmacyStores(), 'DEMO_PHARMACY_STORES', 'PARTNER');
  const f = ctx.fixtures as Fixtures;
  const asPartner = { userId: f.DEMO_PARTNER.userId, roles: ['USER' as const, 'PARTNER_OWNER' as const] };
  let lines = 0;
  for (const [s, store] of f.DEMO_PHARMACY_STORES.entries()) {
    const put = ({ sku, ...product }: Fixtures['DEMO_PRODUCTS'][number], p: number) =>
      pharmacyProducts().put(store.id, sku, asPartner, pharmacyCatalog.items.body.parse({ ...product, stock: f.demoStock(s, p) }));
    await Promise.all(f.DEMO_PRODUCTS.map(put));
    lines += f.DEMO_PRODUCTS.length;
  }
  ctx.log(`seed: pharmacy products: ${lines} stock lines`);
}
