import type { AppConfig } from '../config/config.schema';
import { configSchema } from '../config/config.schema';
import { installSwitches } from '../config/module-switches';
import type { SwitchFragment } from '../config/switches';
import type { AppContext } from '../http/module';
import type { AnyRoute } from '../http/route';
import type { TaskQueue } from '../../kits/tasks/tasks';
import type { CollectionDefinition } from '../../kits/firestore/collections';
import type { Transaction } from 'firebase-admin/firestore';
import type { AuthContext } from '../auth/access-token';
import type { CatalogRecord } from '../../kits/catalog/catalog.model';
import { PLATFORM_ERROR_CODES, registerErrorCodes, type ErrorCodeTable } from '../errors/codes';
import type { CommandDefinition, SeedDefinition } from './maintenance';
import { PLANNED_TAGS } from '../openapi/tags';

export type { CollectionDefinition, CommandDefinition, SeedDefinition };

// What a module contributes to the backend, declared in one place (`modules/<m>/<m>.module.ts`) and listed
// once in `modules/index.ts`: routes, tasks, triggers, collections, the modules it uses, its share of the
// central lists (error codes, events, save and review targets, chat contexts, payment purposes, promotion
// verticals, permissions), its demo data (seed) and its maintenance commands. The Cloud Functions entry exports
// every task and trigger function from that list, so a definition stays light: data and names only, the code of
// routes, tasks, triggers, target sources, seeds and commands is loaded by the `load` functions on first use (an
// instance serving `api` never loads trigger code, and the other way round).

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
  /** Loads the handler; one that reads the documents is a `typedTrigger` (platform/core/module/triggers): records, not raw data. */
  load(): (event: DocumentEvent, config: Readonly<AppConfig>) => Promise<unknown>;
}

/** A record users save (favorites) and review (reviews): which ids are active, who manages one, its figures. */
export interface TargetSource {
  activeByIds(ids: readonly string[]): Promise<Array<CatalogRecord<unknown> | undefined>>;
  isManagedBy(id: string, caller: Pick<AuthContext, 'userId' | 'roles'>, tx?: Transaction): Promise<boolean>;
  /** Stores review figures computed at `asOf` unless newer ones stand. */
  applyRating(id: string, rating: { average: number; count: number; asOf: number }): Promise<boolean>;
}

export interface TargetDefinition {
  /** The type clients name (`PLACE`, `PHARMACY_STORE`…). */
  type: string;
  /** The module's catalog service, loaded on first use. */
  load(): TargetSource;
}

export interface ModuleDefinition {
  /** The module's folder name (`modules/<name>`). */
  name: string;
  /**
   * The modules whose public face this one imports (.dependency-cruiser.cjs reads this line from the file and
   * refuses any other import; the graph must stay acyclic): keep it a one-line array literal.
   */
  uses: readonly string[];
  routes?(ctx: AppContext): AnyRoute[];
  tasks?: Record<string, TaskDefinition<never>>;
  triggers?: Record<string, TriggerDefinition>;
  collections?: CollectionDefinition[];
  /** Its error codes (its `<m>.errors.ts`): one owner per code, none of the platform's. */
  errorCodes?: ErrorCodeTable;
  /** The rows of the hub's event table it sends (its `<m>.events.ts`); one owner per pattern. */
  events?: ReadonlyArray<{ pattern: string }>;
  /** Records it lets users save and review. */
  targets?: readonly TargetDefinition[];
  /** Chat context types its conversations are opened for (chat's CONTEXT_TYPES). */
  chatContexts?: readonly string[];
  /** Payment purposes it charges for (payments' PAYMENT_PURPOSES). */
  paymentPurposes?: readonly string[];
  /** Promotion verticals its vouchers apply to (promotions' PROMOTION_VERTICALS). */
  promotionVerticals?: readonly string[];
  /** Administrator permissions its operations check (ADMIN_PERMISSIONS). */
  permissions?: readonly string[];
  /** The API tags (the spec's functional areas) it serves, with their descriptions; one owner per tag. */
  apiTags?: Readonly<Record<string, string>>;
  /** Its demo data for the emulator (scripts/seed.mjs runs the seeds in module order; see maintenance.ts). */
  seed?: SeedDefinition;
  /** Its one-shot maintenance commands, run as `node scripts/stack.mjs module <module>:<command>` (kebab-case names). */
  commands?: Record<string, CommandDefinition>;
  /**
   * Its env switches (`<m>.config.ts`: `export const <m>Switches = defineSwitches({…})`), validated with the platform's
   * at every cold start; one owner per key. The entry reads them from module-switches.generated.ts (regenerated below).
   */
  config?: SwitchFragment;
}

export function defineTask<P>(task: TaskDefinition<P>): TaskDefinition<never> {
  return task as unknown as TaskDefinition<never>;
}

/** The lists a module contributes to, each claimed by one module only. */
const CONTRIBUTIONS = {
  errorCodes: (m: ModuleDefinition) => Object.keys(m.errorCodes ?? {}),
  events: (m: ModuleDefinition) => (m.events ?? []).map((e) => e.pattern),
  targets: (m: ModuleDefinition) => (m.targets ?? []).map((t) => t.type),
  chatContexts: (m: ModuleDefinition) => m.chatContexts ?? [],
  paymentPurposes: (m: ModuleDefinition) => m.paymentPurposes ?? [],
  promotionVerticals: (m: ModuleDefinition) => m.promotionVerticals ?? [],
  permissions: (m: ModuleDefinition) => m.permissions ?? [],
  apiTags: (m: ModuleDefinition) => Object.keys(m.apiTags ?? {}),
  switches: (m: ModuleDefinition) => Object.keys(m.config?.switches ?? {}),
} as const;
export type ContributionList = keyof typeof CONTRIBUTIONS;

function firstDuplicate(values: readonly string[]): string | undefined {
  return values.find((v, i) => values.indexOf(v) !== i);
}

export function defineModule<M extends ModuleDefinition>(module: M): M {
  for (const [name, task] of Object.entries(module.tasks ?? {})) {
    if (task.queue.name !== name)
      throw new Error(`module ${module.name}: task function ${name} must consume the queue of its own name (got ${task.queue.name})`);
  }
  if (module.uses.includes(module.name)) throw new Error(`module ${module.name}: uses itself`);
  for (const name of Object.keys(module.commands ?? {}))
    if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name)) throw new Error(`module ${module.name}: command ${name} is not kebab-case`);
  for (const [list, of] of Object.entries({ uses: (m: ModuleDefinition) => m.uses, ...CONTRIBUTIONS })) {
    const twice = firstDuplicate(of(module));
    if (twice !== undefined) throw new Error(`module ${module.name}: ${list} names ${twice} twice`);
  }
  return module;
}

/** The module list with every central list derived from it (in module order). */
export interface ModuleRegistry extends Record<ContributionList, readonly string[]> {
  modules: readonly ModuleDefinition[];
  /** The module that contributed an entry of a list. */
  ownerOf(list: ContributionList, value: string): string | undefined;
  /** A target's source, by type; undefined for an unknown type. */
  target(type: string): TargetDefinition | undefined;
}

function checkUses(modules: readonly ModuleDefinition[]): void {
  const byName = new Map(modules.map((m) => [m.name, m]));
  for (const m of modules) for (const used of m.uses) if (!byName.has(used)) throw new Error(`module ${m.name}: uses ${used}, which is not in the module list`);
  const done = new Set<string>();
  const visit = (name: string, path: string[]): void => {
    if (path.includes(name)) throw new Error(`modules use each other in a cycle: ${[...path, name].join(' → ')}`);
    if (done.has(name)) return;
    for (const used of byName.get(name)!.uses) visit(used, [...path, name]);
    done.add(name);
  };
  for (const m of modules) visit(m.name, []);
}

/**
 * Checks a module list (unique names, known and acyclic `uses`, every contributed entry claimed once) and
 * derives the central lists from it. Throws at load time: a conflict never reaches a request.
 */
export function defineModules(modules: readonly ModuleDefinition[]): ModuleRegistry {
  const twice = firstDuplicate(modules.map((m) => m.name));
  if (twice !== undefined) throw new Error(`module ${twice} is listed twice`);
  checkUses(modules);
  for (const m of modules) {
    for (const code of Object.keys(m.errorCodes ?? {}))
      if (code in PLATFORM_ERROR_CODES) throw new Error(`errorCodes: ${code} of module ${m.name} is a platform code`);
    for (const key of Object.keys(m.config?.switches ?? {}))
      if (key in configSchema.shape) throw new Error(`switches: ${key} of module ${m.name} is a platform switch`);
    for (const tag of Object.keys(m.apiTags ?? {}))
      if (tag in PLANNED_TAGS) throw new Error(`apiTags: ${tag} of module ${m.name} is still listed as planned (platform/core/openapi/tags.ts)`);
  }
  const owners = {} as Record<ContributionList, Map<string, string>>;
  for (const [list, of] of Object.entries(CONTRIBUTIONS) as Array<[ContributionList, (m: ModuleDefinition) => readonly string[]]>) {
    owners[list] = new Map();
    for (const m of modules) {
      for (const value of of(m)) {
        const owner = owners[list].get(value);
        if (owner !== undefined) throw new Error(`${list}: ${value} is claimed by modules ${owner} and ${m.name}`);
        owners[list].set(value, m.name);
      }
    }
  }
  const targets = new Map(modules.flatMap((m) => (m.targets ?? []).map((t) => [t.type, t] as const)));
  const entries = Object.entries(owners).map(([list, map]) => [list, Object.freeze([...map.keys()])]);
  const lists = Object.fromEntries(entries) as Record<ContributionList, readonly string[]>;
  return Object.freeze({
    ...lists,
    modules: Object.freeze([...modules]),
    ownerOf: (list: ContributionList, value: string) => owners[list].get(value),
    target: (type: string) => targets.get(type),
  });
}

/** The lists modules below their contributors (and the platform) read at load, with their literal types. */
export const GENERATED_LISTS = ['chatContexts', 'paymentPurposes', 'promotionVerticals', 'permissions', 'apiTags'] as const;

/** module-lists.generated.ts of a registry: plain data, so chat, payments, promotions and roles import it freely. */
export function renderModuleLists(registry: ModuleRegistry): string {
  // Laid out as the formatter lays it out (one entry a line when the list does not fit in 160 columns).
  const line = (list: string, values: readonly string[]) => `  ${list}: [${values.map((v) => `'${v}'`).join(', ')}],`;
  const wrapped = (list: string, values: readonly string[]) => [`  ${list}: [`, ...values.map((v) => `    '${v}',`), '  ],'].join('\n');
  const lines = GENERATED_LISTS.map((list) => (line(list, registry[list]).length <= 160 ? line : wrapped)(list, registry[list]));
  return `// Generated from the module list (src/modules/index.ts): do not edit. Each entry is claimed by one module's definition.
// After changing a claim: UPDATE_MODULE_LISTS=1 npm run test:unit -- module-definitions (the test checks this file).
export const MODULE_LISTS = {
${lines.join('\n')}
} as const;
`;
}

/**
 * src/module-switches.generated.ts of a registry: every module's switches imported from its `<m>.config.ts` without its
 * definition, so the functions entry validates the whole configuration at cold start without loading the modules.
 */
export function renderModuleSwitches(registry: ModuleRegistry): string {
  const owners = registry.modules.filter((m) => m.config);
  const imports = owners.map((m) => `import { ${m.name}Switches } from './modules/${m.name}/${m.name}.config';\n`).join('');
  const rows = owners.map((m) => `{ module: '${m.name}', switches: ${m.name}Switches }`);
  // Laid out as the formatter lays it out: two or more objects one a line.
  const list = rows.length > 1 ? `[\n${rows.map((r) => `  ${r},\n`).join('')}]` : `[${rows.join('')}]`;
  return `// Generated from the module list (src/modules/index.ts): do not edit. The modules' switch fragments (their definitions'
// \`config\`), which the functions entry installs before it validates the configuration, without loading the definitions.
// After a module adds or drops its \`config\`: UPDATE_MODULE_LISTS=1 npm run test:unit -- module-definitions (the test checks this file).
import type { ModuleSwitches } from './platform/core/config/module-switches';
${imports}
export const MODULE_SWITCHES: readonly ModuleSwitches[] = ${list};
`;
}

// The registry of the running backend, installed once by the composition root (src/modules/index.ts), which every
// function instance loads first. Modules read lists that higher modules contribute to (favorites and reviews read
// the targets) through it at run time, instead of importing those modules. It is kept on the global object: the
// deployed code is two bundles (bundle.mjs), each with its own copy of this file, and the list installed by
// dist/index.js must be the one the lazily loaded code of dist/runtime.js reads.
const SLOT = Symbol.for('superapp.moduleRegistry');
const slot = globalThis as { [SLOT]?: ModuleRegistry };

export function installModules(registry: ModuleRegistry): ModuleRegistry {
  for (const m of registry.modules) registerErrorCodes(m.name, m.errorCodes ?? {});
  installSwitches(registry.modules.flatMap((m) => (m.config ? [{ module: m.name, switches: m.config }] : [])));
  slot[SLOT] = registry;
  return registry;
}

export function moduleRegistry(): ModuleRegistry {
  const registry = slot[SLOT];
  if (!registry) throw new Error('the module list is not loaded: import src/modules (the composition root) first');
  return registry;
}
