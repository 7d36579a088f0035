import type { SeedContext } from '../../platform/core/module/maintenance';
import { PARTNER_MEMBERS, PARTNERS } from './partners.model';

// The demo partner (an approved business with its owner, emulator only): it manages the pharmacy stores, parking
// lots and fuel stations of the map tab.
export async function seedPartners(ctx: SeedContext): Promise<void> {
  const { DEV_ADMIN: admin, DEMO_PARTNER: partner } = ctx.fixtures as { DEV_ADMIN: { id: string }; DEMO_PARTNER: { id: string; userId: string; name: string } };
  const now = ctx.now;
  await ctx.write(PARTNERS, {
    [partner.id]: {
      ownerId: partner.userId,
      businessName: partner.name,
      businessType: 'SERVICES',
      address: 'TP. Hồ Chí Minh',
      status: 'ACTIVE',
      applicationId: 'seed',
      createdAt: now,
      updatedAt: now,
      approvedAt: now,
    },
  });
  await ctx.write(PARTNER_MEMBERS, {
    [`${partner.id}_${partner.userId}`]: { partnerId: partner.id, userId: partner.userId, role: 'OWNER', email: null, addedBy: admin.id, createdAt: now },
  });
}
