import { ConflictError, NotFoundError } from '../../platform/core/errors/app-error';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { iso } from '../../platform/kits/time/time';
import { FAVORITE_LIMIT, type FavoriteRecord } from './favorites.model';
import { favoritesRepo } from './favorites.repo';
import { targetSource, targetSummary, targetTypes, type TargetType } from './favorites.targets';

export function createFavoritesService(now: () => number = Date.now) {
  /** Favorites with the current summary of each record (null when it was hidden or archived since). */
  async function withTargets(records: FavoriteRecord[]) {
    const byType = new Map<TargetType, FavoriteRecord[]>();
    for (const r of records) byType.set(r.type, [...(byType.get(r.type) ?? []), r]);
    const found = new Map<string, ReturnType<typeof targetSummary>>();
    await Promise.all(
      [...byType].map(async ([type, list]) => {
        const targets = await targetSource(type).activeByIds(list.map((r) => r.targetId));
        targets.forEach((t, i) => t && found.set(`${type}/${list[i].targetId}`, targetSummary(t)));
      }),
    );
    return records.map((r) => ({ type: r.type, targetId: r.targetId, createdAt: iso(r.createdAt), target: found.get(`${r.type}/${r.targetId}`) ?? null }));
  }

  return {
    /** Saves a record; saving it again changes nothing (created: false). */
    async add(userId: string, type: TargetType, targetId: string) {
      const [target] = await targetSource(type).activeByIds([targetId]);
      if (!target) throw new NotFoundError(`No such ${type.toLowerCase().replace('_', ' ')}`);
      const t = now();
      const { record, created } = await inTransaction(async (tx) => {
        const existing = await favoritesRepo.get(userId, type, targetId, tx);
        if (existing) return { record: existing, created: false };
        if ((await favoritesRepo.countOf(userId, tx)) >= FAVORITE_LIMIT)
          throw new ConflictError(`At most ${FAVORITE_LIMIT} favorites: remove some first`).withCode('FAVORITE_LIMIT');
        const fresh: FavoriteRecord = { userId, type, targetId, createdAt: t };
        favoritesRepo.create(tx, fresh);
        return { record: fresh, created: true };
      });
      return { created, favorite: { type, targetId, createdAt: iso(record.createdAt), target: targetSummary(target) } };
    },

    async remove(userId: string, type: TargetType, targetId: string) {
      await favoritesRepo.remove(userId, type, targetId);
      return { deleted: true as const };
    },

    async status(userId: string, type: TargetType, targetId: string) {
      const record = await favoritesRepo.get(userId, type, targetId);
      return { saved: record !== undefined, createdAt: record ? iso(record.createdAt) : null };
    },

    async list(userId: string, query: { type?: TargetType; limit: number; cursor?: string }) {
      const page = await favoritesRepo.list(userId, query.type, {
        limit: query.limit,
        cursor: query.cursor,
        query: `favorites:${query.type ?? ''}`,
        caller: userId,
      });
      return { items: await withTargets(page.items), nextCursor: page.nextCursor };
    },

    types: () => [...targetTypes()],
  };
}
