import { z } from 'zod';
import { defineCatalog, defineCatalogItems } from '../../platform/kits/catalog/catalog.spec';
import { defineCatalogVertical } from '../../platform/kits/catalog/catalog.vertical';
import { BooleanQuerySchema } from '../../platform/core/http/query';
import { priceRange } from '../../platform/kits/money/money.schemas';
import { partnerCatalogDeps } from '../partners';
import { PHARMACY_STORES, PHARMACY_PRODUCTS } from './pharmacy.collections';

// Pharmacy stores on the map and, under each, its products with price and stock ("which pharmacy near me has it").

export { PHARMACY_STORES, PHARMACY_PRODUCTS };

const products = defineCatalogItems({
  collection: PHARMACY_PRODUCTS,
  segment: 'products',
  parentField: 'storeId',
  keyField: 'sku',
  noun: 'product',
  nouns: 'products',
  parentNoun: 'store',
  parentNouns: 'stores',
  schemaName: 'PharmacyProduct',
  pluralName: 'PharmacyProducts',
  putNote: 'price and stock',
  stock: true,
  body: z.object({
    name: z.string().trim().min(2).max(120).describe('As on the box: "Panadol Extra 500mg"'),
    priceVnd: priceRange(0, 100_000_000).describe('Price per unit, VND'),
    stock: z.number().int().min(0).max(1_000_000).describe('Units on hand; 0: out of stock'),
    unit: z.string().trim().min(1).max(20).default('hộp').describe('Sales unit: hộp (box), vỉ (strip), chai (bottle)…'),
    requiresPrescription: z.boolean().default(false),
  }),
  view: z.object({
    name: z.string(),
    priceVnd: z.number().int(),
    stock: z.number().int(),
    inStock: z.boolean(),
    unit: z.string(),
    requiresPrescription: z.boolean(),
  }),
  nearbySearch: {
    path: '/pharmacy/products/search',
    summary: 'Pharmacies near me that have a product in stock',
    note: 'Ordering medicine belongs to orders.',
    perRecord: 20,
  },
});

export const pharmacyCatalog = defineCatalog({
  tag: 'pharmacy',
  collection: PHARMACY_STORES,
  basePath: '/pharmacy/stores',
  noun: 'pharmacy store',
  nouns: 'pharmacy stores',
  schemaName: 'PharmacyStore',
  pluralName: 'PharmacyStores',
  details: z.object({
    chain: z.string().trim().min(1).max(60).optional().describe('Pharmacy chain (Long Châu, Pharmacity, An Khang…)'),
    pharmacistOnDuty: z.boolean().optional().describe('A licensed pharmacist serves at the counter'),
    licenceNo: z.string().trim().min(3).max(40).optional().describe('Pharmacy business licence number'),
  }),
  maxRadiusM: 10_000,
  filters: z.object({ open24h: BooleanQuerySchema.optional().describe('true: only stores open around the clock (openingHours.open24h)') }),
  keep: (store, f) => !f.open24h || store.hours?.open24h === true,
  items: products,
});

export const pharmacy = defineCatalogVertical(pharmacyCatalog, { deps: () => partnerCatalogDeps });
export const pharmacyStores = pharmacy.service;
export const pharmacyProducts = pharmacy.items;
