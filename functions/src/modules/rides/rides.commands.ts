import type { CommandContext } from '../../platform/core/module/maintenance';
import { migrateRideRatings } from './rides.migrate-ratings';

/** `rides:migrate-ratings`: riders' ratings still on ride documents move to ride_driver_ratings. */
export async function migrateRatings(ctx: CommandContext): Promise<void> {
  const r = await migrateRideRatings((pages, moved, skipped) => ctx.log(`  page ${pages}: ${moved} moved, ${skipped} skipped so far`));
  ctx.log(`done: ${r.moved} rating(s) moved, ${r.removed} duplicate(s) removed, ${r.skipped} skipped (no driver) over ${r.pages} page(s)`);
}
