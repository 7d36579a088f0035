// Public face of the partners module. Partner-owned verticals (places, commerce, bookings) check membership
// through `partnerRoleOf`; catalogs get it with photo checks as `partnerCatalogDeps`.
import type { CatalogDeps } from '../../platform/kits/catalog/catalog.service';
import { attachableImage } from '../media';
export type { MemberRecord } from './partners.model';

/**
 * The caller's role in a partner that is ACTIVE: what partner-owned verticals check before a partner's owner or
 * staff manage its records. Undefined for a non-member or a partner not approved yet.
 */
export async function partnerRoleOf(
  partnerId: string,
  userId: string,
  tx?: import('firebase-admin/firestore').Transaction,
): Promise<'OWNER' | 'STAFF' | undefined> {
  const { partnersRepo } = require('./partners.repo') as typeof import('./partners.repo');
  const [partner, member] = await Promise.all([partnersRepo.get(partnerId, tx), partnersRepo.member(partnerId, userId, tx)]);
  return partner?.status === 'ACTIVE' ? member?.role : undefined;
}

/** A partner's members (owner and staff), oldest first: whom its orders notify and who is paid. */
export async function partnerMembers(partnerId: string): Promise<Array<{ userId: string; role: 'OWNER' | 'STAFF' }>> {
  const { partnersRepo } = require('./partners.repo') as typeof import('./partners.repo');
  return (await partnersRepo.membersOf(partnerId)).map((m) => ({ userId: m.userId, role: m.role }));
}

/** What the catalog kit needs from outside the platform: partner membership and the caller's image uploads. */
export const partnerCatalogDeps: CatalogDeps = {
  partnerRole: partnerRoleOf,
  photo: attachableImage,
};
