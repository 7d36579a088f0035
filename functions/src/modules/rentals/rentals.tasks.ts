import type { AppConfig } from '../../platform/core/config';
import { createRentalDeposits } from './rentals.deposits';

/** A deposit's lease window ended (at least once): refunded when still HELD. */
export async function onDepositExpiry(payload: { depositId: string }, config: Readonly<AppConfig>): Promise<void> {
  await createRentalDeposits(config).expire(payload.depositId);
}
