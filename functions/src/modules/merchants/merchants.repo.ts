import type { Transaction } from 'firebase-admin/firestore';
import { db } from '../../platform/core/firebase/firebase';
import { MERCHANT_ITEMS } from './merchants.collections';

// What the module reads of its items beside the catalog kit: which menu sections still hold items.

const IN_FILTER_MAX = 30;

export const merchantsRepo = {
  /** The sections among `keys` that hold at most one item each read (in the transaction: equality filters only, no composite index). */
  async sectionsInUse(tx: Transaction, merchantId: string, keys: readonly string[]): Promise<string[]> {
    const used = new Set<string>();
    for (let i = 0; i < keys.length; i += IN_FILTER_MAX) {
      const chunk = keys.slice(i, i + IN_FILTER_MAX);
      const snap = await tx.get(db().collection(MERCHANT_ITEMS).where('merchantId', '==', merchantId).where('categoryKey', 'in', chunk).select('categoryKey'));
      for (const doc of snap.docs) used.add(String(doc.get('categoryKey')));
    }
    return keys.filter((k) => used.has(k));
  },
};
