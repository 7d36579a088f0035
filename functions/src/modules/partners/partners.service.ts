import { iso, isoOrNull } from '../../platform/kits/time/time';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { ConflictError, NotFoundError } from '../../platform/core/errors/app-error';
import { logger } from '../../platform/core/logging/logger';
import type { Mailer } from '../../platform/core/mail/mailer';
import { applications, applicationView, type Decision, type KycService } from '../kyc';
import { partnerRolesFor, type MemberRecord, type PartnerRecord } from './partners.model';
import { partnersRepo } from './partners.repo';
import { newUserRecord, normalizeRoles, accounts, localeOf } from '../users';
import { PARTNER_TEXTS } from './partners.texts';

export function partnerView(p: PartnerRecord, myRole?: MemberRecord['role']) {
  return {
    id: p.id,
    businessName: p.businessName,
    businessType: p.businessType,
    address: p.address,
    status: p.status,
    applicationId: p.applicationId,
    myRole: myRole ?? null,
    createdAt: iso(p.createdAt),
    approvedAt: isoOrNull(p.approvedAt),
  };
}

export function memberView(m: MemberRecord) {
  return { partnerId: m.partnerId, userId: m.userId, role: m.role, email: m.email, addedBy: m.addedBy, createdAt: iso(m.createdAt) };
}

export function createPartnersService(deps: { kyc: KycService; mailer: Mailer; now?: () => number }) {
  const now = deps.now ?? Date.now;

  // Only the owner of an ACTIVE partner manages its staff; anyone else sees no such partner.
  async function txOwnedActivePartner(tx: FirebaseFirestore.Transaction, partnerId: string, callerId: string) {
    const partner = await partnersRepo.get(partnerId, tx);
    const membership = partner ? await partnersRepo.txMember(tx, partnerId, callerId) : undefined;
    if (!partner || membership?.role !== 'OWNER') throw new NotFoundError('Partner not found');
    if (partner.status !== 'ACTIVE') throw new ConflictError('The partner is not approved yet');
    return partner;
  }

  return {
    async register(userId: string, body: { businessName: string; businessType: string; address?: string }) {
      const t = now();
      const app = await inTransaction(async (tx) => {
        const open = (await applications.txNotRejectedOf(tx, userId, 'PARTNER')).filter((a) => a.status !== 'APPROVED');
        if (open.length > 0) throw new ConflictError('You already have an open partner application', { applicationId: open[0].id });
        const partnerId = partnersRepo.newId();
        const created = applications.txOpen(tx, {
          kind: 'PARTNER',
          userId,
          details: { partnerId, businessName: body.businessName, businessType: body.businessType, address: body.address ?? null },
          now: t,
        });
        partnersRepo.txCreate(tx, {
          id: partnerId,
          ownerId: userId,
          businessName: body.businessName,
          businessType: body.businessType,
          address: body.address ?? null,
          status: 'PENDING',
          applicationId: created.id,
          createdAt: t,
          updatedAt: t,
          approvedAt: null,
        });
        return created;
      });
      return applicationView(app, []);
    },

    decide(id: string, decision: Decision, adminId: string) {
      return deps.kyc.decide('PARTNER', id, decision, adminId, (app) => {
        const partnerId = app.details.partnerId as string;
        return {
          roles: partnerRolesFor(String(app.details.businessType ?? '')),
          write: (tx, approved, t) => {
            partnersRepo.txActivate(tx, partnerId, t);
            partnersRepo.txAddMember(tx, {
              partnerId,
              userId: approved.userId,
              role: 'OWNER',
              email: null,
              addedBy: approved.reviewedBy ?? 'system',
              createdAt: t,
            });
          },
        };
      });
    },

    async mine(userId: string) {
      const [owned, memberships] = await Promise.all([partnersRepo.ownedBy(userId), partnersRepo.membershipsOf(userId)]);
      const roleOf = new Map(memberships.map((m) => [m.partnerId, m.role]));
      const staffOf = await Promise.all(memberships.filter((m) => m.role === 'STAFF').map((m) => partnersRepo.get(m.partnerId)));
      const all = [...owned, ...staffOf.filter((p): p is PartnerRecord => p !== undefined)];
      return all.map((p) => partnerView(p, roleOf.get(p.id) ?? (p.ownerId === userId ? 'OWNER' : undefined)));
    },

    async staff(partnerId: string, callerId: string) {
      await inTransaction((tx) => txOwnedActivePartner(tx, partnerId, callerId));
      return (await partnersRepo.membersOf(partnerId)).map(memberView);
    },

    // Invites by email: an existing account joins; a new email gets an account that signs in with email OTP.
    async addStaff(partnerId: string, callerId: string, emailInput: string) {
      const email = emailInput.toLowerCase();
      const t = now();
      const { member, partner, locale } = await inTransaction(async (tx) => {
        const owned = await txOwnedActivePartner(tx, partnerId, callerId);
        const existing = await accounts.findByEmail(email, tx);
        if (existing && (await partnersRepo.txMember(tx, partnerId, existing.id))) throw new ConflictError('Already a member of this partner');
        if (existing?.disabled) throw new ConflictError('This account is locked');
        const user =
          existing ??
          newUserRecord({
            id: accounts.newId(),
            email,
            name: email.split('@')[0],
            passwordHash: null,
            emailVerified: false,
            provider: null,
            now: t,
            status: 'ACTIVE',
          });
        const withRole = { roles: normalizeRoles([...user.roles, 'PARTNER_STAFF']), updatedAt: t, updatedBy: callerId };
        if (existing) accounts.txPatch(tx, existing, withRole);
        else accounts.txCreate(tx, { ...user, ...withRole });
        const added: MemberRecord = { partnerId, userId: user.id, role: 'STAFF', email, addedBy: callerId, createdAt: t };
        partnersRepo.txAddMember(tx, added);
        // An account this creates has no language yet: it follows the default until its owner picks one.
        return { member: added, partner: owned, locale: localeOf(existing) };
      });
      deps.mailer
        .send({ to: email, ...PARTNER_TEXTS.render('mail.staffAdded', { business: partner.businessName }, locale) })
        .catch((err: Error) => logger.warn('staff invitation mail failed', { error: err.message }));
      return memberView(member);
    },

    async removeStaff(partnerId: string, callerId: string, userId: string) {
      const t = now();
      await inTransaction(async (tx) => {
        await txOwnedActivePartner(tx, partnerId, callerId);
        const member = await partnersRepo.txMember(tx, partnerId, userId);
        if (!member || member.role !== 'STAFF') throw new NotFoundError('Staff member not found');
        const user = await accounts.get(userId, tx);
        const stillStaffElsewhere = (await partnersRepo.txStaffMembershipsOf(tx, userId)).some((m) => m.partnerId !== partnerId);
        partnersRepo.txRemoveMember(tx, partnerId, userId);
        if (user && !stillStaffElsewhere)
          accounts.txPatch(tx, user, { roles: user.roles.filter((r) => r !== 'PARTNER_STAFF'), updatedAt: t, updatedBy: callerId });
      });
      return { deleted: true as const };
    },
  };
}
