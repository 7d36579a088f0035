import type { Transaction } from 'firebase-admin/firestore';
import type { AuthContext } from '../../core/auth/access-token';
import { assertPermission } from '../../core/auth/guard';
import { holdsPermission } from '../../core/auth/roles';
import { ConflictError, ForbiddenError, NotFoundError } from '../../core/errors/app-error';
import type { CatalogPhoto, CatalogRecord } from './catalog.model';
import type { CatalogRepo } from './catalog.repo';

// Who may see and change a catalog record: its partner's owner and staff, administrators holding catalog.manage.
// Shared by the records' service and their child items'.

export interface CatalogDeps {
  /** The caller's role in an ACTIVE partner (undefined: not a member, or the partner is not active). */
  partnerRole(partnerId: string, userId: string, tx?: Transaction): Promise<'OWNER' | 'STAFF' | undefined>;
  /** One of the caller's READY image uploads. */
  photo(ownerId: string, mediaId: string, tx?: Transaction): Promise<CatalogPhoto | undefined>;
  now?(): number;
}

export type Caller = Pick<AuthContext, 'userId' | 'roles' | 'permissions'>;
/** An administrator acting as one: holding catalog.manage (a narrowed admin is an ordinary caller here, or refused). */
export const isAdmin = (caller: Caller) => caller.roles.includes('ADMIN') && holdsPermission(caller.permissions, 'catalog.manage');
/** An administrator without catalog.manage, on a path only the permission opens: 403 PERMISSION_REQUIRED. */
export const refuseNarrowedAdmin = (caller: Caller) => {
  if (caller.roles.includes('ADMIN')) assertPermission(caller as AuthContext, 'catalog.manage');
};

/** The access rules of one catalog (its noun in messages, its repo, the partner lookup). */
export function catalogAccess<D>(noun: string, repo: CatalogRepo<D>, deps: CatalogDeps, hideFromOthers = false) {
  type Rec = CatalogRecord<D>;
  const notFound = () => new NotFoundError(`No such ${noun}`);
  const notManager = () => new ForbiddenError(`You do not manage this ${noun}`).withCode('CATALOG_NOT_MANAGER');

  async function manages(record: Rec, caller: Caller, tx?: Transaction): Promise<boolean> {
    if (record.partnerId === null) return isAdmin(caller);
    return (await deps.partnerRole(record.partnerId, caller.userId, tx)) !== undefined;
  }

  /**
   * 404 when the caller may not even see the record (or the spec hides records from non-managers), 403 when they only
   * see it (a narrowed admin: 403 PERMISSION_REQUIRED).
   */
  function refuse(record: Rec | undefined, caller: Caller): never {
    refuseNarrowedAdmin(caller);
    // A narrowed admin learns nothing on the admin path, not even whether the record exists.
    if (!record) throw notFound();
    if (isAdmin(caller)) throw notManager();
    throw record.status === 'ACTIVE' && !hideFromOthers ? notManager() : notFound();
  }

  /** The record for a change by its managers (administrators too with `adminsToo`). */
  async function managed(id: string, caller: Caller, tx: Transaction, adminsToo = false): Promise<Rec> {
    const record = await repo.get(id, tx);
    if (record && ((adminsToo && isAdmin(caller)) || (await manages(record, caller, tx)))) return record;
    return refuse(record, caller);
  }

  function editable(record: Rec): void {
    if (record.status === 'ARCHIVED') {
      throw new ConflictError(`This ${noun} is archived: it cannot change`, { status: record.status }).withCode('CATALOG_TRANSITION');
    }
  }

  /**
   * Who did something to a record, as the caller may see it: administrators with catalog.manage see every account id;
   * a partner's managers see their own members' ids and `ADMIN` for anyone else (a moderator's id is not theirs to see).
   */
  async function actorLabels(record: Rec, caller: Caller, actors: readonly string[]): Promise<(by: string) => string> {
    if (isAdmin(caller)) return (by) => by;
    const members = new Set<string>();
    if (record.partnerId !== null) {
      const partnerId = record.partnerId;
      const distinct = [...new Set(actors)].filter((by) => !by.startsWith('system:'));
      const roles = await Promise.all(distinct.map((by) => deps.partnerRole(partnerId, by)));
      distinct.forEach((by, i) => roles[i] && members.add(by));
    }
    return (by) => (by.startsWith('system:') || members.has(by) ? by : 'ADMIN');
  }

  /** Visible to the caller: active, or the caller manages it or administers catalogs. */
  async function visible(record: Rec, caller: Caller): Promise<boolean> {
    return record.status === 'ACTIVE' || isAdmin(caller) || (await manages(record, caller));
  }

  return { notFound, notManager, manages, refuse, managed, editable, actorLabels, visible };
}
