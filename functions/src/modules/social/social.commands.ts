import type { CommandContext } from '../../platform/core/module/maintenance';
import { backfillFollowerSets } from './social.backfill';

/** `social:backfill-follower-sets`: every followed author's follower set written from their follows. */
export async function backfillFollowerSetsCommand(ctx: CommandContext): Promise<void> {
  const r = await backfillFollowerSets((authors, written) => ctx.log(`  ${authors} author(s) seen, ${written} set(s) written so far`));
  ctx.log(`done: ${r.written} follower set(s) written, ${r.skipped} large author(s) skipped, of ${r.authors}`);
}
