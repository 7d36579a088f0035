import type { SeedContext } from '../../platform/core/module/maintenance';
import { mockGateway, mockKey } from './gateways/mock';
import { vnd } from '../../platform/kits/money/money';
import { createPaymentsService } from './payments.service';

// Lan tops up 500,000 ₫ through the mock gateway, through the service itself (the ledger's transfer, her balance
// and the payment record are what the API writes). Fixed key and clock: the same ids every time, and a second
// run finds the top-up already done. The wallet's seed then sends Minh part of it.
export async function seedPayments(ctx: SeedContext): Promise<void> {
  const [lan] = (ctx.fixtures as { DEMO_USERS: Array<{ id: string }> }).DEMO_USERS;
  const payments = createPaymentsService({
    gateways: { MOCK: mockGateway((id) => `http://127.0.0.1:5000/api/v1/payments/mock/return?paymentId=${id}`) },
    mockKey: mockKey('seed'),
    expirySec: 900,
    refundWindowDays: 7,
    scheduler: { schedule: async () => undefined }, // a MOCK top-up settles at once: no expiry timer to set
    now: () => ctx.now + 3_600_000, // an hour after the accounts
    // The defaults of the switches (a top-up reads none of them).
    dailyTransferLimit: 20_000_000,
    tipMaxCount: 1,
    tipWindowSec: 24 * 3600,
    staffApprovalVnd: 5_000_000,
  });
  const topup = await payments.topup(lan.id, { amount: vnd(500_000), provider: 'MOCK' }, 'seed-topup-lan-1', '127.0.0.1');
  ctx.log(`seed: payments: Lan's top-up ${topup.status}`);
}
