import type { AppConfig } from '../config';
import type { AppContext } from '../http/module';
import type { AnyRoute } from '../http/route';
import type { TaskQueue } from '../tasks/tasks';
import type { CollectionDefinition } from '../firestore/collections';

export type { CollectionDefinition };

// What a module contributes to the backend, declared in one place (`modules/<m>/<m>.module.ts`) and listed
// once in `modules/index.ts`. The Cloud Functions entry exports every task and trigger function from that list,
// so a definition stays light: the code of routes, tasks and triggers is loaded by the `load` functions on
// first use (an instance serving `api` never loads trigger code, and the other way round).

export interface TaskFunctionOptions {
  retryConfig?: { maxAttempts?: number; minBackoffSeconds?: number; maxBackoffSeconds?: number };
  rateLimits?: { maxConcurrentDispatches?: number };
  timeoutSeconds?: number;
  memory?: '256MiB' | '512MiB' | '1GiB';
}

export interface TaskDefinition<P = unknown> {
  /** The queue; its name is the task function's exported name. */
  queue: TaskQueue<P>;
  options: TaskFunctionOptions;
  /** Loads the handler (at least once delivery: it must be idempotent). */
  load(): (payload: P, config: Readonly<AppConfig>) => Promise<void>;
}

export type DocumentChange = 'created' | 'updated' | 'deleted' | 'written';

/** A Firestore trigger's event, reduced to what handlers need (ids, params, plain before/after data). */
export interface DocumentEvent {
  /** Unique per event; repeated on a redelivery: derive idempotency ids from it. */
  id: string;
  /** ISO time of the change. */
  time: string;
  params: Record<string, string>;
  before: { id: string; data: Record<string, unknown> } | undefined;
  after: { id: string; data: Record<string, unknown> } | undefined;
}

export interface TriggerDefinition {
  /** Document path pattern, e.g. `calls/{callId}`. */
  document: string;
  on: DocumentChange;
  options?: { memory?: '256MiB' | '512MiB'; timeoutSeconds?: number };
  /** Loads the handler; one that reads the documents is a `typedTrigger` (platform/module/triggers): records, not raw data. */
  load(): (event: DocumentEvent, config: Readonly<AppConfig>) => Promise<unknown>;
}


export interface ModuleDefinition {
  /** The module's folder name (`modules/<name>`). */
  name: string;
  routes?(ctx: AppContext): AnyRoute[];
  tasks?: Record<string, TaskDefinition<never>>;
  triggers?: Record<string, TriggerDefinition>;
  collections?: CollectionDefinition[];
}

export function defineTask<P>(task: TaskDefinition<P>): TaskDefinition<never> {
  return task as unknown as TaskDefinition<never>;
}

export function defineModule<M extends ModuleDefinition>(module: M): M {
  for (const [name, task] of Object.entries(module.tasks ?? {})) {
    if (task.queue.name !== name) throw new Error(`module ${module.name}: task function ${name} must consume the queue of its own name (got ${task.queue.name})`);
  }
  return module;
}
