import type { z } from 'zod';
import type { AuthContext } from '../../platform/core/auth/access-token';
import type { CatalogService } from '../../platform/kits/catalog/catalog.service';
import { NotFoundError } from '../../platform/core/errors/app-error';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { foldText, matchesSearch, searchTermOf, searchTermsOf } from '../../platform/kits/text/text';
import { iso } from '../../platform/kits/time/time';
import type { pharmacyCatalog, ProductRecord } from './pharmacy.catalog';
import { pharmacyRepo, PRODUCTS_PER_STORE } from './pharmacy.repo';
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
      const page = await pharmacyRepo.ofStore(
        storeId,
        { term, inStock: query.inStock },
        { limit: query.limit, cursor: query.cursor, query: `pharmacy:products:${storeId}:${term ?? ''}:${query.inStock ?? ''}`, caller: caller.userId },
      );
      return { items: page.items.filter((p) => !query.q || matchesSearch(p.name, query.q)).map(productView), nextCursor: page.nextCursor };
    },

    /**
     * Active stores within the radius that have a matching product in stock, nearest first, with those products (at
     * most PRODUCTS_PER_STORE each). Under the nearby read budget: the stores are paged by distance (the catalog's
     * nearby), then each one's matching stock lines are read, until `limit` stores are found or `budget` documents
     * read; in a dense area the farther stores are left out. `reads` is for tests and the bench, not the API.
     */
    async searchNearby(query: z.output<typeof ProductSearchQuerySchema>, caller: Caller, options: { budget: number }) {
      const term = searchTermOf(query.q);
      const items: Array<{ store: ReturnType<typeof stores.view>; products: ReturnType<typeof productView>[] }> = [];
      let reads = 0;
      let cursor: string | undefined;
      while (term && items.length < query.limit && reads < options.budget) {
        const page = await stores.nearby(
          { lat: query.lat, lng: query.lng, radiusM: query.radiusM, limit: 20, ...(cursor ? { cursor } : {}) } as never,
          caller,
          { budget: options.budget - reads },
        );
        reads += page.reads;
        // The page's stores in parallel, each within an equal share of what is left (a store costs at least one read).
        const near = page.items.slice(0, Math.max(0, options.budget - reads));
        const share = near.length > 0 ? Math.max(1, Math.min(PRODUCTS_PER_STORE, Math.floor((options.budget - reads) / near.length))) : 0;
        const lines = await Promise.all(near.map((store) => pharmacyRepo.inStockAt(store.id, term, share)));
        lines.forEach((found, i) => {
          reads += Math.max(1, found.length);
          const matching = found.filter((p) => matchesSearch(p.name, query.q));
          if (matching.length > 0 && items.length < query.limit) items.push({ store: near[i], products: matching.map(productView) });
        });
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
      }
      return { items, reads };
    },
  };
}
