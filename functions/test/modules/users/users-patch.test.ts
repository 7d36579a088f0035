import { randomUUID } from 'node:crypto';
import { db } from '../../../src/platform/core/firebase/firebase';
import { newUserRecord, USERS } from '../../../src/modules/users/users.model';
import { usersRepo } from '../../../src/modules/users/users.repo';
import { requireEmulators } from '../../helpers/emulators';

beforeAll(requireEmulators);

// usersRepo.patch writes only if the account did not change since its read (an update-time precondition),
// without holding a lock across the round trip.
describe('usersRepo.patch', () => {
  async function account() {
    const user = newUserRecord({
      id: `patch-${randomUUID()}`,
      email: `${randomUUID()}@example.com`,
      name: 'Before',
      passwordHash: null,
      emailVerified: true,
      provider: null,
      now: Date.now(),
    });
    await db().runTransaction(async (tx) => usersRepo.txCreate(tx, user));
    return { user, ref: db().collection(USERS).doc(user.id) };
  }

  it('a write that lands between its read and its write makes it read again and recompute', async () => {
    const { user, ref } = await account();
    const seen: boolean[] = [];
    const updated = await usersRepo.patch(user.id, async (current) => {
      seen.push(current.disabled);
      // Another writer (an administrator's lock) between this read and this write.
      if (seen.length === 1) await ref.update({ disabled: true });
      return { name: 'Raced', updatedAt: Date.now() };
    });
    expect(seen).toEqual([false, true]);
    expect(updated).toMatchObject({ name: 'Raced', disabled: true });
    const stored = (await ref.get()).data()!;
    expect([stored.name, stored.disabled]).toEqual(['Raced', true]);
    expect(stored.searchPrefixes).toEqual(expect.arrayContaining(['raced']));
  });

  it('20 renames racing a lock: every rename lands, the lock stays', async () => {
    const { user, ref } = await account();
    const renames = Array.from({ length: 20 }, (_, i) => usersRepo.patch(user.id, () => ({ name: `Name ${i}`, updatedAt: Date.now() })));
    const lock = ref.update({ disabled: true });
    const results = await Promise.all(renames);
    await lock;
    expect(results.every((r) => r?.name.startsWith('Name '))).toBe(true);
    expect((await ref.get()).get('disabled')).toBe(true);
  });

  it('an account written between every optimistic read and write still gets the patch (it queues on the lock)', async () => {
    const { user, ref } = await account();
    let reads = 0;
    const updated = await usersRepo.patch(user.id, async () => {
      reads += 1;
      // Another writer beats every optimistic attempt; the transaction's read then holds the document.
      if (reads <= 10) await ref.update({ phone: `+8490000000${reads}` });
      return { name: `Won after ${reads}`, updatedAt: Date.now() };
    });
    expect(reads).toBe(11);
    const stored = (await ref.get()).data()!;
    expect(stored.name).toBe(updated!.name);
    expect(stored.phone).toBe(updated!.phone);
  });

  it('an empty change writes nothing; a missing account is undefined', async () => {
    const { user, ref } = await account();
    const before = (await ref.get()).updateTime!;
    expect(await usersRepo.patch(user.id, () => ({}))).toMatchObject({ id: user.id });
    expect((await ref.get()).updateTime!.isEqual(before)).toBe(true);
    expect(await usersRepo.patch(`missing-${randomUUID()}`, () => ({ name: 'x' }))).toBeUndefined();
  });
});
