import { HATS } from '../../platform/core/auth/roles';
import { NotFoundError } from '../../platform/core/errors/app-error';
import type { Locale } from '../../platform/kits/i18n';
import { hatsFor, toProfile } from './users.model';
import { usersRepo } from './users.repo';

export type UsersServiceRepo = Pick<typeof usersRepo, 'get' | 'patch'>;

export function createUsersService(deps: { now?: () => number; repo?: UsersServiceRepo } = {}) {
  const now = deps.now ?? Date.now;
  const repo = deps.repo ?? usersRepo;
  const load = async (userId: string) => {
    const user = await repo.get(userId);
    if (!user) throw new NotFoundError('Account not found');
    return user;
  };
  return {
    async profile(userId: string) {
      return toProfile(await load(userId));
    },
    // Only the fields sent (and the name's search prefixes) are written: a lock, role change or password reset
    // that lands while this request runs is never undone by it.
    async updateProfile(userId: string, patch: { name?: string; locale?: Locale }) {
      const updated = await repo.patch(userId, () => ({
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.locale ? { locale: patch.locale } : {}),
        updatedAt: now(),
      }));
      if (!updated) throw new NotFoundError('Account not found');
      return toProfile(updated);
    },
    async hats(userId: string) {
      const hats = hatsFor((await load(userId)).roles);
      return { hats: HATS.map((hat) => ({ hat, unlocked: hats[hat] })), unlocked: HATS.filter((hat) => hats[hat]) };
    },
  };
}
