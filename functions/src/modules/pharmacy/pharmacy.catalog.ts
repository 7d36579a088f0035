import { z } from 'zod';
import { defineCatalog } from '../../platform/kits/catalog/catalog.spec';
import { BooleanQuerySchema } from '../../platform/core/http/query';
import { PHARMACY_STORES, PHARMACY_PRODUCTS } from './pharmacy.collections';

export { PHARMACY_STORES, PHARMACY_PRODUCTS };

const details = z.object({
  chain: z.string().trim().min(1).max(60).optional().describe('Pharmacy chain (Long Châu, Pharmacity, An Khang…)'),
  pharmacistOnDuty: z.boolean().optional().describe('A licensed pharmacist serves at the counter'),
  licenceNo: z.string().trim().min(3).max(40).optional().describe('Pharmacy business licence number'),
});

export const pharmacyCatalog = defineCatalog({
  tag: 'pharmacy',
  collection: PHARMACY_STORES,
  basePath: '/pharmacy/stores',
  noun: 'pharmacy store',
  nouns: 'pharmacy stores',
  schemaName: 'PharmacyStore',
  pluralName: 'PharmacyStores',
  details,
  maxRadiusM: 10_000,
  filters: z.object({ open24h: BooleanQuerySchema.optional().describe('true: only stores open around the clock (openingHours.open24h)') }),
  keep: (store, f) => !f.open24h || store.hours?.open24h === true,
});

export interface ProductRecord {
  storeId: string;
  sku: string;
  name: string;
  nameFolded: string;
  terms: string[];
  priceVnd: number;
  stock: number;
  inStock: boolean;
  unit: string;
  requiresPrescription: boolean;
  updatedBy: string;
  updatedAt: number;
}
