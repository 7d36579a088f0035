import type { CommandContext } from '../../platform/core/module/maintenance';
import { checkLedger } from './ledger.check';

/**
 * `wallet:ledger-check`: every account's balance against the sum of its transfers, and the whole against zero.
 * Exits 0 when the books balance, 1 when they do not, 2 when they could not be read.
 */
export async function ledgerCheck(ctx: CommandContext): Promise<number> {
  try {
    const r = await checkLedger((what, n) => ctx.log(`  ${what}: ${n} read`));
    for (const m of r.mismatches) ctx.log(`  MISMATCH ${m.accountId}: stored ${m.stored}, transfers say ${m.fromTransfers}`);
    const figures = `${r.accounts} account(s), ${r.transfers} transfer(s), total ${r.total} VND (must be 0), ${r.mismatches.length} mismatch(es)`;
    ctx.log(`${r.ok ? 'balanced' : 'NOT BALANCED'}: ${figures}`);
    return r.ok ? 0 : 1;
  } catch (e) {
    console.error(`[superapp] ERROR: ${(e as Error).message}`);
    return 2;
  }
}
