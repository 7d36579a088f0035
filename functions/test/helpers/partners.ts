import { randomUUID } from 'node:crypto';
import { db } from '../../src/platform/core/firebase/firebase';
import { adminTokens, emailOtpLogin, registerVerified, type Tokens } from './accounts';
import { call, uniqueEmail } from './api';
import { PARTNERS, PARTNER_MEMBERS } from '../../src/modules/partners/partners.model';

export type PartnerOwner = Tokens & { partnerId: string };

// An approved partner and its owner, without the paper flow (partner-applications.test.ts covers that): the
// admin grants PARTNER_OWNER, the partner and membership are written as approval writes them, and the owner's
// tokens are refreshed so they carry the role.
export async function activePartner(name = 'Nhà thuốc An Khang', admin?: Tokens): Promise<PartnerOwner> {
  admin ??= await adminTokens();
  const owner = await registerVerified({ name: `${name} owner` });
  const granted = await call('PATCH', `/users/admin/${owner.user.id}/roles`, { token: admin.accessToken, body: { roles: ['USER', 'PARTNER_OWNER'] } });
  if (granted.status !== 200) throw new Error(`grant ${granted.status}: ${JSON.stringify(granted.body)}`);
  const partnerId = `p-${randomUUID().slice(0, 12)}`;
  const t = Date.now();
  await Promise.all([
    db().collection(PARTNERS).doc(partnerId).set({
      ownerId: owner.user.id,
      businessName: name,
      businessType: 'RETAIL',
      address: null,
      status: 'ACTIVE',
      applicationId: 'test',
      createdAt: t,
      updatedAt: t,
      approvedAt: t,
    }),
    db()
      .collection(PARTNER_MEMBERS)
      .doc(`${partnerId}_${owner.user.id}`)
      .set({ partnerId, userId: owner.user.id, role: 'OWNER', email: null, addedBy: admin.user.id, createdAt: t }),
  ]);
  const refreshed = await call<Tokens>('POST', '/auth/refresh', { body: { refreshToken: owner.refreshToken } });
  if (refreshed.status !== 200) throw new Error(`refresh ${refreshed.status}`);
  return { ...refreshed.body, partnerId };
}

/** A staff member the owner invites (POST /partners/:id/staff), signed in on the partner app. */
export async function staffOf(owner: PartnerOwner): Promise<Tokens> {
  const email = uniqueEmail('staff');
  const added = await call('POST', `/partners/${owner.partnerId}/staff`, { token: owner.accessToken, body: { email } });
  if (added.status !== 201) throw new Error(`add staff ${added.status}: ${JSON.stringify(added.body)}`);
  return emailOtpLogin(email, 'PAR', 'vi'); // an invited account has no language of its own yet: the default
}

/** The cast of the partner-owned verticals' tests: an administrator, two approved partners and a consumer. */
export async function partnerCast(ownerName: string, rivalName: string): Promise<{ admin: Tokens; owner: PartnerOwner; rival: PartnerOwner; user: Tokens }> {
  const admin = await adminTokens();
  const [owner, rival, user] = await Promise.all([activePartner(ownerName, admin), activePartner(rivalName, admin), registerVerified()]);
  return { admin, owner, rival, user };
}
