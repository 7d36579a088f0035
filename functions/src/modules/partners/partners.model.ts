// Firestore layout: `partners/{id}` and `partner_members/{partnerId_userId}` (API only).
export const PARTNERS = 'partners';
export const PARTNER_MEMBERS = 'partner_members';

import type { Role } from '../../platform/core/auth/roles';

// Roles an approved partner owner gets from its business type (case-insensitive "contains").
export function partnerRolesFor(businessType: string): Role[] {
  const type = businessType.toUpperCase();
  const roles: Role[] = ['PARTNER_OWNER'];
  if (type.includes('RENT') || type.includes('LANDLORD')) roles.push('LANDLORD');
  if (type.includes('MED') || type.includes('DOCTOR') || type.includes('CLINIC')) roles.push('DOCTOR');
  return roles;
}

export type PartnerStatus = 'PENDING' | 'ACTIVE';
export type MemberRole = 'OWNER' | 'STAFF';

// `partners/{id}`
export interface PartnerRecord {
  id: string;
  ownerId: string;
  businessName: string;
  businessType: string;
  address: string | null;
  status: PartnerStatus;
  applicationId: string;
  createdAt: number;
  updatedAt: number;
  approvedAt: number | null;
}

// `partner_members/{partnerId}_{userId}`: PARTNER_STAFF (and the owner) scoped to one partner.
export interface MemberRecord {
  partnerId: string;
  userId: string;
  role: MemberRole;
  email: string | null;
  addedBy: string;
  createdAt: number;
}
