// Public face of the users module: accounts, the lowest layer every other module builds on.
// Other modules read and change accounts through these commands, never through users.repo or users.model.
import { usersAdminRepo, usersRepo } from './users.repo';

export type { UserRecord, AuthProvider, AccountStatus } from './users.model';
export type { UserPatch, UserListFilter } from './users.repo';
export { newUserRecord, normalizeRoles, toProfile, hatsFor, unlockedHats, localeOf } from './users.model';
export { changedFields, activeAccountsPage, accountReader } from './users.repo';
export { UserProfileSchema } from './users.schemas';

/**
 * Account commands. The `tx*` ones, and reads given a `tx`, run inside the caller's transaction (reads before
 * writes, as Firestore requires); the others stand alone. Writes name only the fields that change (never a whole stale account).
 */
export const accounts = {
  newId: () => usersRepo.newId(),
  /** The account, in the caller's transaction when `tx` is given. */
  get: (id: string, tx?: FirebaseFirestore.Transaction) => usersRepo.get(id, tx),
  findByEmail: (email: string, tx?: FirebaseFirestore.Transaction) => usersRepo.findByEmail(email, tx),
  findByPhone: (phone: string) => usersRepo.findByPhone(phone),
  /** Each account's language (see localeOf), one read for all: the notification hub's recipients. */
  localesOf: (ids: readonly string[]) => usersRepo.localesOf(ids),
  txPhoneOwner: usersRepo.txPhoneOwner.bind(usersRepo),
  txCreate: usersRepo.txCreate.bind(usersRepo),
  txPatch: usersRepo.txPatch.bind(usersRepo),
  txClaimPhone: usersRepo.txClaimPhone.bind(usersRepo),
  txReleasePhone: usersRepo.txReleasePhone.bind(usersRepo),
  patch: usersRepo.patch.bind(usersRepo),
  update: usersRepo.update.bind(usersRepo),
  /** The account's document, to read it together with others in one getAll. */
  ref: (id: string) => usersRepo.userRef(id),
  fromSnapshot: (snap: FirebaseFirestore.DocumentSnapshot) => usersRepo.fromSnapshot(snap),
};

/** Queries over all accounts, for administration (list, counts, the remaining administrators). */
export const accountDirectory = {
  list: usersAdminRepo.list.bind(usersAdminRepo),
  count: usersAdminRepo.count.bind(usersAdminRepo),
  txActiveAdminIds: usersAdminRepo.txActiveAdminIds.bind(usersAdminRepo),
};
