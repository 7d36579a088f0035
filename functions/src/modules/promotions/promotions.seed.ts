import type { SeedContext } from '../../platform/core/module/maintenance';
import { PromotionBodySchema } from './promotions.schemas';
import { createPromotionsService } from './promotions.service';

// The demo vouchers (emulator only; scripts/lib/demo-map.mjs), created by the local administrator through the
// service, each body validated by the API's own schema.
export async function seedPromotions(ctx: SeedContext): Promise<void> {
  const { DEV_ADMIN: admin, DEMO_VOUCHERS: vouchers } = ctx.fixtures as { DEV_ADMIN: { id: string }; DEMO_VOUCHERS: unknown[] };
  const promotions = createPromotionsService({ partnerRole: async () => undefined, payable: async () => undefined, now: () => ctx.now }); // creating reads neither;
  for (const voucher of vouchers) await promotions.create({ userId: admin.id, roles: ['USER', 'ADMIN'] }, PromotionBodySchema.parse(voucher));
  ctx.log(`seed: vouchers: ${vouchers.length}`);
}
