import type { DocumentChange, ModuleDefinition, TriggerDefinition } from './module';

// Triggers of different modules on the same document path run as one Cloud Function: a payment's write was three
// invocations (payments, orders, bookings), a user's update two, each billed and each a cold start of its own.
// The function runs every handler the change concerns, one after another under the handler's own name (logs, cost
// lines); one that fails fails the function after the others ran, and the redelivery runs them all again, which
// handlers tolerate (every trigger is idempotent by the event id).

export interface TriggerHandler {
  name: string;
  module: string;
  trigger: TriggerDefinition;
}

export interface TriggerGroup {
  /** The Cloud Function's name: the handler's own when it is alone on its path, else `<collections>Changed`. */
  name: string;
  document: string;
  /** The change the function listens to: the handlers' own when they agree, else every write. */
  on: DocumentChange;
  options: { memory: '256MiB' | '512MiB'; timeoutSeconds: number };
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

/** The Cloud Functions the modules' triggers make, in module order; throws on a name used twice. */
export function groupTriggers(modules: readonly Pick<ModuleDefinition, 'name' | 'triggers'>[]): TriggerGroup[] {
  const byDocument = new Map<string, TriggerHandler[]>();
  for (const m of modules)
    for (const [name, trigger] of Object.entries(m.triggers ?? {})) {
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
        memory: handlers.some((h) => h.trigger.options?.memory === '512MiB') ? '512MiB' : '256MiB',
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
