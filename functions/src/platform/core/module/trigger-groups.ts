import type { DocumentChange, DocumentEvent, ModuleDefinition, TriggerDefinition } from './module';

// Triggers of different modules on the same document path run as one Cloud Function: a payment's write was three
// invocations (payments, orders, bookings), a user's update two, each billed and each a cold start of its own.
// The function runs every handler the change concerns, side by side, each under its own name (logs, cost lines); one
// that fails fails the delivery after the others ended, and the redelivery runs them all again: every handler must
// tolerate a repeat of an event it already handled, and judge a late one against the current state (a driver let
// back in is not taken offline by the redelivered lock). The handlers of a group see the same event id: one that
// derives ids from it keeps them apart from the others' (the audit trail writes `audit_log/{eventId}`, no other).

export interface TriggerHandler {
  name: string;
  module: string;
  trigger: TriggerDefinition;
}

type Memory = NonNullable<NonNullable<TriggerDefinition['options']>['memory']>;
/** Every memory size a trigger may declare, in MiB: a group runs at its largest handler's. */
const MEMORY_MIB: Record<Memory, number> = { '256MiB': 256, '512MiB': 512 };

export interface TriggerGroup {
  /** The Cloud Function's name: the handler's own when it is alone on its path, else `<collections>Changed`. */
  name: string;
  document: string;
  /** The change the function listens to: the handlers' own when they agree, else every write. */
  on: DocumentChange;
  options: { memory: Memory; timeoutSeconds: number };
  handlers: TriggerHandler[];
}

/** Whether a handler declared `on` is called for a change (the function may listen to more: `written`). */
export function concerns(on: DocumentChange, change: { before: boolean; after: boolean }): boolean {
  switch (on) {
    case 'created':
      return !change.before && change.after;
    case 'updated':
      return change.before && change.after;
    case 'deleted':
      return change.before && !change.after;
    case 'written':
      return true;
  }
}

/** `conversations/{conversationId}/messages/{messageId}` → `conversationsMessagesChanged`, `ride_sos/{id}` → `rideSosChanged`. */
export function groupFunctionName(document: string): string {
  const words = document
    .split('/')
    .filter((_, i) => i % 2 === 0)
    .flatMap((collection) => collection.split(/[^A-Za-z0-9]+/))
    .filter(Boolean);
  return `${words.map((w, i) => (i === 0 ? w : w[0].toUpperCase() + w.slice(1))).join('')}Changed`;
}

/** `users/{userId}` → `users/{}`: paths that differ only in their wildcards' names watch the same documents. */
const shapeOf = (document: string) => document.replace(/\{[^}]*\}/g, '{}');

/**
 * The Cloud Functions the modules' triggers make, in module order. Throws on a name used twice, and on two triggers
 * of one path that name its wildcards differently (they would be two functions, and the handlers read `params`).
 */
export function groupTriggers(modules: readonly Pick<ModuleDefinition, 'name' | 'triggers'>[]): TriggerGroup[] {
  const byDocument = new Map<string, TriggerHandler[]>();
  const spelled = new Map<string, string>();
  for (const m of modules)
    for (const [name, trigger] of Object.entries(m.triggers ?? {})) {
      const first = spelled.get(shapeOf(trigger.document)) ?? trigger.document;
      if (first !== trigger.document)
        throw new Error(`trigger functions: ${name} watches ${trigger.document}, another trigger ${first}: name the wildcards alike`);
      spelled.set(shapeOf(trigger.document), trigger.document);
      const handlers = byDocument.get(trigger.document) ?? [];
      byDocument.set(trigger.document, [...handlers, { name, module: m.name, trigger }]);
    }
  const groups = [...byDocument].map(([document, handlers]): TriggerGroup => {
    const ons = new Set(handlers.map((h) => h.trigger.on));
    return {
      name: handlers.length === 1 ? handlers[0].name : groupFunctionName(document),
      document,
      on: ons.size === 1 ? handlers[0].trigger.on : 'written',
      options: {
        memory: handlers.map((h) => h.trigger.options?.memory ?? '256MiB').reduce((a, b) => (MEMORY_MIB[b] > MEMORY_MIB[a] ? b : a)),
        timeoutSeconds: Math.max(...handlers.map((h) => h.trigger.options?.timeoutSeconds ?? 60)),
      },
      handlers,
    };
  });
  const names = [...groups.map((g) => g.name), ...groups.filter((g) => g.handlers.length > 1).flatMap((g) => g.handlers.map((h) => h.name))];
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice !== undefined) throw new Error(`trigger functions: the name ${twice} is used twice`);
  return groups;
}

/**
 * Runs the group's handlers the change concerns side by side (`runOne` runs one, in its log fields); when one fails,
 * the others still end, then the first failure is thrown (the delivery is retried). Answers how many ran.
 */
export async function runGroup(
  group: Pick<TriggerGroup, 'handlers'>,
  change: DocumentEvent,
  runOne: (handler: TriggerHandler) => Promise<void>,
): Promise<number> {
  const side = { before: change.before !== undefined, after: change.after !== undefined };
  const concerned = group.handlers.filter((h) => concerns(h.trigger.on, side));
  const failed = (await Promise.allSettled(concerned.map(runOne))).find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  return concerned.length;
}
