import { z } from 'zod';
import { CATALOG_ADMIN_PATH, catalogRoutes, NEARBY_RATE_LIMIT } from '../../platform/kits/catalog/catalog.routes';
import type { AppContext } from '../../platform/core/http/module';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { DeletedSchema, IdParamsSchema } from '../../platform/core/http/ids';
import {
  ProductBodySchema,
  ProductListQuerySchema,
  ProductPageSchema,
  ProductParamsSchema,
  ProductSchema,
  ProductSearchQuerySchema,
  StoreWithProductsSchema,
} from './pharmacy.schemas';
import { pharmacyProducts, pharmacyStores } from './pharmacy.wiring';

export function pharmacyRoutes(ctx: AppContext): AnyRoute[] {
  const products = pharmacyProducts();
  return [
    defineRoute({
      method: 'get',
      path: '/pharmacy/products/search',
      operationId: 'searchPharmacyProducts',
      tag: 'pharmacy',
      summary: 'Pharmacies near me that have a product in stock',
      description:
        'Every word of q matches the start of a word of the product name (diacritics ignored). Stores within radiusM, nearest first, each with its matching products (at most 20). lat/lng must be numbers (400). One request reads at most NEARBY_READ_BUDGET documents (the stores nearest first, then their stock lines): in a very dense area the farther stores are left out. Ordering medicine belongs to orders.',
      auth: [],
      rateLimit: NEARBY_RATE_LIMIT,
      request: { query: ProductSearchQuerySchema },
      response: { description: 'Stores with the matching products.', schema: z.object({ items: z.array(StoreWithProductsSchema) }) },
      handler: async ({ query, auth }) => ({ items: (await products.searchNearby(query, auth!, { budget: ctx.config.NEARBY_READ_BUDGET })).items }),
    }),
    ...catalogRoutes(pharmacyStores(), ctx.config),
    defineRoute({
      method: 'get',
      path: '/pharmacy/stores/:id/products',
      operationId: 'listPharmacyProducts',
      tag: 'pharmacy',
      summary: 'Products of a store',
      auth: [],
      errors: [404],
      request: { params: IdParamsSchema, query: ProductListQuerySchema },
      response: { description: 'Alphabetical, with stock.', schema: ProductPageSchema },
      handler: ({ params, query, auth }) => products.listProducts(params.id, auth!, query),
    }),
    defineRoute({
      method: 'put',
      path: '/pharmacy/stores/:id/products/:sku',
      operationId: 'setPharmacyProduct',
      tag: 'pharmacy',
      summary: 'Add or replace a product of a store (price and stock)',
      description: `By the store’s managers; the sku is yours (letters, digits, . _ -). stock 0 marks it out of stock. ${CATALOG_ADMIN_PATH}`,
      auth: ['PARTNER_OWNER', 'PARTNER_STAFF', 'ADMIN'],
      permission: 'catalog.manage',
      errors: [404],
      codes: ['CATALOG_NOT_MANAGER', 'CATALOG_TRANSITION', 'PERMISSION_REQUIRED'],
      request: { params: ProductParamsSchema, body: ProductBodySchema },
      response: { description: 'The product as stored.', schema: ProductSchema },
      handler: ({ params, body, auth }) => products.putProduct(params.id, params.sku, auth!, body),
    }),
    defineRoute({
      method: 'delete',
      path: '/pharmacy/stores/:id/products/:sku',
      operationId: 'removePharmacyProduct',
      tag: 'pharmacy',
      summary: 'Remove a product from a store',
      description: CATALOG_ADMIN_PATH,
      auth: ['PARTNER_OWNER', 'PARTNER_STAFF', 'ADMIN'],
      permission: 'catalog.manage',
      errors: [404],
      codes: ['CATALOG_NOT_MANAGER', 'CATALOG_TRANSITION', 'PERMISSION_REQUIRED'],
      request: { params: ProductParamsSchema },
      response: { description: 'Removed.', schema: DeletedSchema },
      handler: ({ params, auth }) => products.removeProduct(params.id, params.sku, auth!),
    }),
  ];
}
