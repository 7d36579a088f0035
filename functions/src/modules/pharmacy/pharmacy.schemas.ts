import { z } from 'zod';
import { catalogSchemas } from '../../platform/kits/catalog/catalog.routes';
import { PageQuerySchema } from '../../platform/kits/firestore/paginate';
import { NearbyQuerySchema, radiusQuerySchema } from '../../platform/kits/geo/geo';
import { DocumentIdSchema } from '../../platform/core/http/ids';
import { BooleanQuerySchema } from '../../platform/core/http/query';
import { pharmacyCatalog } from './pharmacy.catalog';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';
import { priceRange } from '../../platform/kits/money/money.schemas';

export const SkuSchema = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1 to 64 letters, digits, ".", "_" or "-"');
export const ProductParamsSchema = z.object({ id: DocumentIdSchema, sku: SkuSchema });

export const ProductBodySchema = z
  .object({
    name: z.string().trim().min(2).max(120).describe('As on the box: "Panadol Extra 500mg"'),
    priceVnd: priceRange(0, 100_000_000).describe('Price per unit, VND'),
    stock: z.number().int().min(0).max(1_000_000).describe('Units on hand; 0: out of stock'),
    unit: z.string().trim().min(1).max(20).default('hộp').describe('Sales unit: hộp (box), vỉ (strip), chai (bottle)…'),
    requiresPrescription: z.boolean().default(false),
  })
  .meta({ id: 'PharmacyProductBody' });

export const ProductSchema = z
  .object({
    storeId: z.string(),
    sku: z.string(),
    name: z.string(),
    priceVnd: z.number().int(),
    stock: z.number().int(),
    inStock: z.boolean(),
    unit: z.string(),
    requiresPrescription: z.boolean(),
    updatedAt: IsoTimeSchema,
  })
  .meta({ id: 'PharmacyProduct' });

export const ProductPageSchema = z.object({ items: z.array(ProductSchema), nextCursor: z.string().nullable() }).meta({ id: 'PharmacyProductPage' });

export const ProductListQuerySchema = PageQuerySchema.extend({
  q: z.string().trim().min(2).max(60).optional().describe('Words of the product name (diacritics ignored)'),
  inStock: BooleanQuerySchema.optional(),
});

export const ProductSearchQuerySchema = NearbyQuerySchema.extend({
  radiusM: radiusQuerySchema(pharmacyCatalog.maxRadiusM),
  q: z.string().trim().min(2).max(60).describe('Words of the product name'),
  limit: z.coerce.number().int().min(1).max(50).default(10).describe('Stores at most'),
});

export const StoreWithProductsSchema = z
  .object({ store: catalogSchemas(pharmacyCatalog).view, products: z.array(ProductSchema) })
  .meta({ id: 'PharmacyStoreWithProducts' });
