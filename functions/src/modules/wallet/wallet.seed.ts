import type { SeedContext } from '../../platform/core/module/maintenance';
import { vnd } from '../../platform/kits/money/money';
import { createWalletService } from './wallet.service';

// Lan sends Minh 50,000 ₫ of her seeded top-up (payments' seed, which runs first), through the service itself.
// Fixed key and clock (the payments seed's, an hour after the accounts): a second run finds it done.
export async function seedWallet(ctx: SeedContext): Promise<void> {
  const [lan, minh] = (ctx.fixtures as { DEMO_USERS: Array<{ id: string }> }).DEMO_USERS;
  const wallet = createWalletService({ dailyTransferLimit: 20_000_000, adjustmentApprovalVnd: 5_000_000, now: () => ctx.now + 3_600_000 });
  const sent = await wallet.sendToUser(lan.id, { toUserId: minh.id, amount: vnd(50_000), note: 'Tiền taxi sân bay' }, 'seed-p2p-lan-minh-1');
  ctx.log(`seed: wallet: sent Minh ${sent.amount} ₫ (Lan ${sent.balanceAfter} ₫)`);
}
