import { HATS } from '../../platform/auth/roles';
import { NotFoundError } from '../../platform/errors/app-error';
import { hatsFor, toProfile } from './users.model';
import { usersRepo } from './users.repo';

export function createUsersService(now: () => number = Date.now) {
  const load = async (userId: string) => {
    const user = await usersRepo.get(userId);
    if (!user) throw new NotFoundError('Account not found');
    return user;
  };
  return {
    async profile(userId: string) {
      return toProfile(await load(userId));
    },
    async updateProfile(userId: string, patch: { name: string }) {
      const user = await load(userId);
      const updated = { ...user, name: patch.name, updatedAt: now() };
      await usersRepo.save(updated);
      return toProfile(updated);
    },
    async hats(userId: string) {
      const hats = hatsFor((await load(userId)).roles);
      return { hats: HATS.map((hat) => ({ hat, unlocked: hats[hat] })), unlocked: HATS.filter((hat) => hats[hat]) };
    },
  };
}
