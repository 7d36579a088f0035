import { createHmac } from 'node:crypto';
import type { LocalizedText, NoticeText } from '../../platform/kits/i18n';

// Aggregated notices (hub.dispatchAggregated): what one item holds of its group, and how the next act changes it.

/**
 * A notice that gathers the people who did the same thing to one entity ("Lan and 12 others liked your post"): one
 * inbox item per recipient and entity, updated as people join, instead of one item each.
 */
export interface AggregateInput {
  /** Who acted: counted once per group (the same person again while the group is unread changes nothing). */
  actor: { id: string; name: string };
  /** The act's own id (a like, a comment): its redelivery changes nothing, also after the item was read. */
  occurrence: string;
  /**
   * How many have acted in all, when the caller counts them (a post's likes, read now). Pass it where acts may come
   * faster than one a second: past AGGREGATE_EACH_UP_TO the item is then rewritten only at milestones. Without it
   * the item counts the people of its group (since it was last read) and is rewritten for each.
   */
  total?: number;
  /** The item's text for the group: the newest actors' names (newest first, up to AGGREGATE_NAMES) and how many in all. */
  text: (group: { names: string[]; count: number }) => LocalizedText<NoticeText>;
}

/** Names an aggregated item keeps for its text; people and acts it keeps (hashed) to know who was counted already. */
export const AGGREGATE_NAMES = 2;
export const AGGREGATE_ACTOR_IDS = 100;
/** The group as stored on the item; recipients read their items directly, so people and acts are kept as keyed hashes. */
export interface StoredGroup {
  actors: string[];
  acts: string[];
  names: string[];
  count: number;
}
/** The key of an aggregated item's hashes, from a server secret: a recipient reading the item cannot test which user ids or acts it holds. */
export const aggregateKey = (serverSecret: string) => createHmac('sha256', serverSecret).update('aggregated-notices').digest();
const keyed = (key: Buffer, kind: 'actor' | 'act', value: string) => createHmac('sha256', key).update(`${kind}:${value}`).digest('base64url').slice(0, 16);
/**
 * Past this many actors an item is rewritten only when its count reaches the next milestone (25, 50, 100, 250, 500,
 * 1,000…): a post liked by many people a second would otherwise rewrite one inbox document faster than Firestore's
 * sustained write a second per document, and push its author each time.
 */
export const AGGREGATE_EACH_UP_TO = 20;
export function aggregateMilestone(count: number): number {
  if (count <= AGGREGATE_EACH_UP_TO) return count;
  let milestone = AGGREGATE_EACH_UP_TO;
  for (let base = 25; base <= count; base *= 10) for (const step of [1, 2, 4]) if (base * step <= count) milestone = base * step;
  return milestone;
}

/**
 * The group after one more act, and whether it pushes; undefined when the item stays as it is: the act was counted
 * already (a redelivery), its actor is in the unread group already, or (with a total, past AGGREGATE_EACH_UP_TO) the
 * count has not reached the next milestone.
 */
export function nextGroup(
  current: { read?: unknown; group?: unknown } | undefined,
  aggregate: Pick<AggregateInput, 'actor' | 'occurrence' | 'total'>,
  key: Buffer,
): { group: StoredGroup; push: boolean } | undefined {
  const group = current?.group as StoredGroup | undefined;
  const actor = keyed(key, 'actor', aggregate.actor.id);
  const act = keyed(key, 'act', aggregate.occurrence);
  if (group?.acts?.includes(act)) return undefined;
  // Read since: the next actor starts a new group (the same people may be told of again).
  const open = current?.read === true ? undefined : group;
  if (open?.actors?.includes(actor)) return undefined;
  // A caller's total is the truth when read (it may count people whose own events come later); else count here.
  const count = aggregate.total !== undefined ? Math.max(1, aggregate.total) : (open?.count ?? 0) + 1;
  if (aggregate.total !== undefined && open && count > AGGREGATE_EACH_UP_TO && aggregateMilestone(count) === aggregateMilestone(open.count)) return undefined;
  const names = [aggregate.actor.name, ...(open?.names ?? []).filter((n) => n !== aggregate.actor.name)].slice(0, AGGREGATE_NAMES);
  return {
    group: {
      actors: [...(open?.actors ?? []), actor].slice(-AGGREGATE_ACTOR_IDS),
      acts: [...(group?.acts ?? []), act].slice(-AGGREGATE_ACTOR_IDS),
      names,
      count,
    },
    push: current === undefined || current.read === true,
  };
}
