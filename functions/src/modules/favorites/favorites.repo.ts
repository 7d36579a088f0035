import type { Transaction } from 'firebase-admin/firestore';
import { paginate, type PageRequest } from '../../platform/kits/firestore/paginate';
import { plainCollection, readRecord } from '../../platform/kits/firestore/records';
import { FAVORITES, favoriteId, type FavoriteRecord } from './favorites.model';
import type { TargetType } from './favorites.targets';

const favorites = () => plainCollection<FavoriteRecord>(FAVORITES);

export const favoritesRepo = {
  get: (userId: string, type: TargetType, targetId: string, tx?: Transaction) => readRecord(favorites().doc(favoriteId(userId, type, targetId)), tx),
  async countOf(userId: string, tx: Transaction): Promise<number> {
    return (await tx.get(favorites().where('userId', '==', userId).count())).data().count;
  },
  create(tx: Transaction, record: FavoriteRecord): void {
    tx.create(favorites().doc(favoriteId(record.userId, record.type, record.targetId)), record);
  },
  remove: (userId: string, type: TargetType, targetId: string) =>
    favorites()
      .doc(favoriteId(userId, type, targetId))
      .delete(),
  /** Newest first; indexes (userId, createdAt desc) and (userId, type, createdAt desc). */
  list(userId: string, type: TargetType | undefined, request: PageRequest) {
    let query = favorites().where('userId', '==', userId);
    if (type) query = query.where('type', '==', type);
    return paginate(query, [{ field: 'createdAt', direction: 'desc' }], request, (d) => d.data());
  },
};
