import { createUsersService, type UsersServiceRepo } from '../../../src/modules/users/users.service';
import { newUserRecord, type UserRecord } from '../../../src/modules/users/users.model';
import type { UserPatch } from '../../../src/modules/users/users.repo';

// A repo over one stored account whose write lands after an administrator's lock: the interleaving of a
// request that started before the lock and writes after it, made deterministic.
function racingRepo(stored: UserRecord, lockBeforeWrite: (u: UserRecord) => UserRecord) {
  let current = stored;
  const writes: UserPatch[] = [];
  const repo: UsersServiceRepo = {
    async get() {
      return current;
    },
    async patch(_id, change) {
      const seen = current; // what the request read
      current = lockBeforeWrite(current); // the administrator's lock commits meanwhile
      const patch = await change(seen);
      writes.push(patch);
      current = { ...current, ...patch }; // field-level write, as Firestore's update()
      return current;
    },
  };
  return { repo, writes, stored: () => current };
}

describe('PATCH /users/me writes only the fields it changes', () => {
  it('a lock (and a role change, a password reset) that lands mid-request is never undone', async () => {
    const user = newUserRecord({
      id: 'u1',
      email: 'lan@example.com',
      name: 'Lan',
      passwordHash: 'old-hash',
      emailVerified: true,
      provider: 'password',
      now: 1,
    });
    const race = racingRepo(user, (u) => ({ ...u, disabled: true, disabledAt: 5, roles: ['USER', 'DRIVER'], passwordHash: 'new-hash', sessionsValidAfter: 5 }));
    const service = createUsersService({ repo: race.repo, now: () => 10 });
    const profile = await service.updateProfile('u1', { name: 'Lan Nguyen' });
    expect(race.writes).toEqual([{ name: 'Lan Nguyen', updatedAt: 10 }]);
    expect(race.stored()).toMatchObject({ name: 'Lan Nguyen', disabled: true, roles: ['USER', 'DRIVER'], passwordHash: 'new-hash', sessionsValidAfter: 5 });
    expect(profile).toMatchObject({ name: 'Lan Nguyen', disabled: true });
  });

  it('a missing account is a 404', async () => {
    const service = createUsersService({ repo: { get: async () => undefined, patch: async () => undefined } });
    await expect(service.updateProfile('nobody', { name: 'X' })).rejects.toMatchObject({ statusCode: 404 });
  });
});
