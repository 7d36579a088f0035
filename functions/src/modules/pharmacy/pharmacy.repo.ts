import type { Transaction } from 'firebase-admin/firestore';
import { paginate, type Page, type PageRequest } from '../../platform/firestore/paginate';
import { plainCollection, readRecord } from '../../platform/firestore/records';
import { PHARMACY_PRODUCTS, type ProductRecord } from './pharmacy.catalog';

const products = () => plainCollection<ProductRecord>(PHARMACY_PRODUCTS);
const productId = (storeId: string, sku: string) => `${storeId}_${sku}`;

/** Stock lines a product search reads at most (the stores they name are then filtered by distance). */
export const PRODUCT_SEARCH_SCAN = 1000;

export const pharmacyRepo = {
  get: (storeId: string, sku: string, tx?: Transaction) => readRecord(products().doc(productId(storeId, sku)), tx),
  put(tx: Transaction, product: ProductRecord): void {
    tx.set(products().doc(productId(product.storeId, product.sku)), product);
  },
  remove(tx: Transaction, storeId: string, sku: string): void {
    tx.delete(products().doc(productId(storeId, sku)));
  },
  ofStore(storeId: string, filter: { term?: string; inStock?: boolean }, request: PageRequest): Promise<Page<ProductRecord>> {
    let query: FirebaseFirestore.Query<ProductRecord> = products().where('storeId', '==', storeId);
    if (filter.term) query = query.where('terms', 'array-contains', filter.term);
    if (filter.inStock) query = query.where('inStock', '==', true);
    return paginate(query, [{ field: 'nameFolded', direction: 'asc' }], request, (d) => d.data());
  },
  async inStockMatching(term: string): Promise<ProductRecord[]> {
    const snap = await products().where('inStock', '==', true).where('terms', 'array-contains', term).limit(PRODUCT_SEARCH_SCAN).get();
    return snap.docs.map((d) => d.data());
  },
};
