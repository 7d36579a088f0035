import { randomUUID } from 'node:crypto';
import { paymentCommands } from '../../src/modules/payments';
import { vnd } from '../../src/platform/kits/money/money';
import type { Tokens } from './accounts';
import { testConfig } from './config';
import { postTopUp } from './wallet';

// The payments module's test driver: a paid payment as another module (rides) makes it through the commands.

let commands: ReturnType<typeof paymentCommands> | undefined;
/** The payment commands with the MOCK gateway, as the modules that charge call them. */
export const mockPayments = () => (commands ??= paymentCommands(testConfig({ PAYMENTS_MOCK: 'true' })));

/** A wallet-paid ride of `payer` to `driver` (20% commission), as the rides module charges it: `payer` is topped up first. */
export async function walletRide(payer: Tokens, driver: Tokens, amount = 50_000) {
  await postTopUp(payer, amount);
  return mockPayments().charge({
    payerId: payer.user.id,
    amount: vnd(amount),
    purpose: 'RIDE',
    ref: { type: 'RIDE', id: `ride-${randomUUID()}` },
    method: 'WALLET',
    payeeId: driver.user.id,
    feeBp: 2_000,
    description: 'Ride',
    idempotencyKey: randomUUID(),
  });
}
