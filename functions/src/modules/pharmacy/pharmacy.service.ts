import type { z } from 'zod';
import type { AuthContext } from '../../platform/auth/access-token';
import type { CatalogService } from '../../platform/catalog/catalog.service';
import { NotFoundError } from '../../platform/errors/app-error';
import { inTransaction } from '../../platform/firebase/firebase';
import { distanceMeters } from '../../platform/geo/geo';
import { foldText, matchesSearch, searchTermOf, searchTermsOf } from '../../platform/text';
import { iso } from '../../platform/time';
import type { pharmacyCatalog, ProductRecord } from './pharmacy.catalog';
import { pharmacyRepo } from './pharmacy.repo';
import type { ProductBodySchema, ProductListQuerySchema, ProductSearchQuerySchema } from './pharmacy.schemas';

type Caller = Pick<AuthContext, 'userId' | 'roles'>;
type Stores = CatalogService<typeof pharmacyCatalog.details, typeof pharmacyCatalog.filters>;

const productView = (p: ProductRecord) => ({
  storeId: p.storeId,
  sku: p.sku,
  name: p.name,
  priceVnd: p.priceVnd,
  stock: p.stock,
  inStock: p.inStock,
  unit: p.unit,
  requiresPrescription: p.requiresPrescription,
  updatedAt: iso(p.updatedAt),
});

// A store's products and stock, and "which pharmacy near me has it".
export function createPharmacyService(stores: Stores, now: () => number = Date.now) {
  return {
    async putProduct(storeId: string, sku: string, caller: Caller, body: z.output<typeof ProductBodySchema>) {
      const t = now();
      const product: ProductRecord = {
        storeId,
        sku,
        name: body.name,
        nameFolded: foldText(body.name),
        terms: searchTermsOf(body.name),
        priceVnd: body.priceVnd,
        stock: body.stock,
        inStock: body.stock > 0,
        unit: body.unit,
        requiresPrescription: body.requiresPrescription,
        updatedBy: caller.userId,
        updatedAt: t,
      };
      await inTransaction(async (tx) => {
        await stores.managedForChange(storeId, caller, tx);
        pharmacyRepo.put(tx, product);
      });
      return productView(product);
    },

    async removeProduct(storeId: string, sku: string, caller: Caller) {
      await inTransaction(async (tx) => {
        await stores.managedForChange(storeId, caller, tx);
        if (!(await pharmacyRepo.get(storeId, sku, tx))) throw new NotFoundError('No such product in this store');
        pharmacyRepo.remove(tx, storeId, sku);
      });
      return { deleted: true as const };
    },

    async listProducts(storeId: string, caller: Caller, query: z.output<typeof ProductListQuerySchema>) {
      await stores.get(storeId, caller); // 404 unless the store is visible to the caller
      const term = query.q ? searchTermOf(query.q) : undefined;
      const page = await pharmacyRepo.ofStore(storeId, { term, inStock: query.inStock }, { limit: query.limit, cursor: query.cursor, query: `pharmacy:products:${storeId}:${term ?? ''}:${query.inStock ?? ''}`, caller: caller.userId });
      return { items: page.items.filter((p) => !query.q || matchesSearch(p.name, query.q)).map(productView), nextCursor: page.nextCursor };
    },

    /** Active stores within the radius that have a matching product in stock, nearest first, with those products. */
    async searchNearby(query: z.output<typeof ProductSearchQuerySchema>) {
      const t = now();
      const lines = (await pharmacyRepo.inStockMatching(searchTermOf(query.q))).filter((p) => matchesSearch(p.name, query.q));
      const byStore = new Map<string, ProductRecord[]>();
      for (const line of lines) byStore.set(line.storeId, [...(byStore.get(line.storeId) ?? []), line]);
      const ids = [...byStore.keys()];
      const records = await stores.activeByIds(ids);
      return {
        items: records
          .flatMap((store) => (store ? [{ store, distanceM: distanceMeters(query, store) }] : []))
          .filter((s) => s.distanceM <= query.radiusM)
          .sort((a, b) => a.distanceM - b.distanceM || (a.store.id < b.store.id ? -1 : 1))
          .slice(0, query.limit)
          .map(({ store, distanceM }) => ({
            store: stores.view(store, t, distanceM),
            products: byStore.get(store.id)!.sort((a, b) => (a.nameFolded < b.nameFolded ? -1 : 1)).map(productView),
          })),
      };
    },
  };
}
