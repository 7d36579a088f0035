import type { Transaction } from 'firebase-admin/firestore';
import { paginate, type PageRequest } from '../../platform/kits/firestore/paginate';
import { plainCollection } from '../../platform/kits/firestore/records';
import { FUEL_PRICE_CHANGES, type PriceChangeRecord } from './fuel.catalog';

const changes = () => plainCollection<PriceChangeRecord>(FUEL_PRICE_CHANGES);

export const fuelRepo = {
  recordPriceChange(tx: Transaction, change: PriceChangeRecord): void {
    tx.create(changes().doc(), change);
  },
  /** Newest first; index (stationId, at desc). */
  priceHistory: (stationId: string, request: PageRequest) =>
    paginate(changes().where('stationId', '==', stationId), [{ field: 'at', direction: 'desc' }], request, (d) => d.data()),
};
