import type { Transaction } from 'firebase-admin/firestore';
import { paginate, type Page, type PageRequest } from '../../platform/kits/firestore/paginate';
import { plainCollection, readRecord } from '../../platform/kits/firestore/records';
import { PHARMACY_PRODUCTS, type ProductRecord } from './pharmacy.catalog';

const products = () => plainCollection<ProductRecord>(PHARMACY_PRODUCTS);
const productId = (storeId: string, sku: string) => `${storeId}_${sku}`;

/** Matching stock lines a product search reads per store at most. */
export const PRODUCTS_PER_STORE = 20;

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
  /** At most `max` of a store's in-stock lines with the word, by name (the index of `ofStore` with a word and inStock). */
  async inStockAt(storeId: string, term: string, max: number): Promise<ProductRecord[]> {
    const snap = await products()
      .where('storeId', '==', storeId)
      .where('terms', 'array-contains', term)
      .where('inStock', '==', true)
      .orderBy('nameFolded')
      .limit(max)
      .get();
    return snap.docs.map((d) => d.data());
  },
};
