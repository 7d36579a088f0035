import type { CommandContext } from '../../platform/core/module/maintenance';
import { backfillDriverCapabilities } from './driver.backfill';
import { dropRetiredCooldowns } from './driver.migrate-cooldowns';

/** `driver:backfill-capabilities`: approved drivers without capabilities get RIDE, COURIER, DELIVERY. */
export async function backfillCapabilities(ctx: CommandContext): Promise<void> {
  const r = await backfillDriverCapabilities((pages, updated) => ctx.log(`  page ${pages}: ${updated} updated so far`));
  ctx.log(`done: ${r.updated} driver profile(s) updated over ${r.pages} page(s)`);
}

/** `driver:drop-retired-cooldowns`: `jobCooldownUntil` leaves driver location documents (now in driver_job_give_ups). */
export async function dropCooldowns(ctx: CommandContext): Promise<void> {
  const r = await dropRetiredCooldowns((pages, cleared) => ctx.log(`  page ${pages}: ${cleared} cleared so far`));
  ctx.log(`done: ${r.cleared} location document(s) cleared over ${r.pages} page(s)`);
}
