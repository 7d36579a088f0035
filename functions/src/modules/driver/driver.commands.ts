import type { CommandContext } from '../../platform/core/module/maintenance';
import { backfillDriverCapabilities } from './driver.backfill';

/** `driver:backfill-capabilities`: approved drivers without capabilities get RIDE, COURIER, DELIVERY. */
export async function backfillCapabilities(ctx: CommandContext): Promise<void> {
  const r = await backfillDriverCapabilities((pages, updated) => ctx.log(`  page ${pages}: ${updated} updated so far`));
  ctx.log(`done: ${r.updated} driver profile(s) updated over ${r.pages} page(s)`);
}
