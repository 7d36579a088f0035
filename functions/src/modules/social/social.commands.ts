import type { CommandContext } from '../../platform/core/module/maintenance';
import { backfillFollowerSets } from './social.backfill';

/** `social:backfill-follower-sets`: a follower set for every author whose follows were stored before sets. */
export async function backfillFollowerSetsCommand(ctx: CommandContext): Promise<void> {
  const r = await backfillFollowerSets((authors, written) => ctx.log(`  ${authors} author(s) seen, ${written} set(s) written so far`));
  ctx.log(`done: ${r.written} follower set(s) written, ${r.skipped} author(s) skipped (a set already, or large) of ${r.authors}`);
}
