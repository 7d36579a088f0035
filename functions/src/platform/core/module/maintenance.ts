import type { CollectionDefinition } from '../../kits/firestore/collections';
import type { ListenedDocument } from '../../kits/firestore/documents';

// What a module contributes besides the running backend: its demo data for the emulator (`seed`, run by
// scripts/seed.mjs) and its one-shot maintenance commands (`commands`, run by `node scripts/stack.mjs module
// <module>:<command>`). Both are loaded only when those scripts run them, never by a function instance.

/** The fixed data every module's seed reads: the demo accounts and the map tab's records (scripts/lib/*.mjs). */
export interface SeedContext {
  /** The seed's fixed clock (epoch ms): the same documents on every run. */
  now: number;
  /** The exports of scripts/lib/dev-accounts.mjs and scripts/lib/demo-map.mjs, by name (each seed reads its own). */
  fixtures: Readonly<Record<string, unknown>>;
  /** Stores documents with fixed ids (set(), one batch per call): a second run rewrites the same documents. */
  write(collection: string, docs: Record<string, Record<string, unknown>>): Promise<void>;
  log(message: string): void;
}

export interface SeedDefinition {
  /** Modules whose seed must run first although they come later in the module list (a transfer needs a top-up). */
  after?: readonly string[];
  load(): (ctx: SeedContext) => Promise<void>;
}

export interface CommandContext {
  /** Prints a progress or result line (`[superapp] ` before it). */
  log(message: string): void;
  /** The documents apps listen to (the backend's collections, platform's and modules'). */
  listened: readonly ListenedDocument[];
  /** Every declared collection, platform's and modules'. */
  collections: readonly CollectionDefinition[];
}

export interface CommandDefinition {
  /** One line for the command list. */
  describe: string;
  /** Loads the command; it resolves to its exit status (0 when omitted); a throw prints the error and exits 1. */
  load(): (ctx: CommandContext) => Promise<number | void>;
}

interface SeedOwner {
  name: string;
  uses: readonly string[];
  seed?: SeedDefinition;
}

/** The seeds in module order, a seed that must wait (`after`) moved behind the seeds it waits for. */
export function seedOrder<M extends SeedOwner>(modules: readonly M[]): M[] {
  const seeded = modules.filter((m) => m.seed);
  const names = new Set(seeded.map((m) => m.name));
  const done = new Set<string>();
  const order: M[] = [];
  const visit = (m: M, path: readonly string[]): void => {
    if (done.has(m.name)) return;
    if (path.includes(m.name)) throw new Error(`seeds wait for each other in a cycle: ${[...path, m.name].join(' → ')}`);
    for (const first of m.seed!.after ?? []) {
      if (!names.has(first)) throw new Error(`module ${m.name}: its seed waits for ${first}, which has no seed in the module list`);
      visit(
        seeded.find((s) => s.name === first)!,
        [...path, m.name],
      );
    }
    done.add(m.name);
    order.push(m);
  };
  for (const m of seeded) visit(m, []);
  return order;
}

/** Runs every module's seed (scripts/seed.mjs). */
export async function runSeeds(modules: readonly SeedOwner[], ctx: SeedContext): Promise<void> {
  for (const m of seedOrder(modules)) await m.seed!.load()(ctx);
}

export interface CommandOwner {
  name: string;
  commands?: Record<string, CommandDefinition>;
}

/** Every `<module>:<command>` with its description, in module order. */
export function commandList(owners: readonly CommandOwner[]): Array<{ name: string; describe: string }> {
  return owners.flatMap((m) => Object.entries(m.commands ?? {}).map(([command, c]) => ({ name: `${m.name}:${command}`, describe: c.describe })));
}

/** Finds `<module>:<command>`; throws with the list of commands when there is none of that name. */
export function findCommand(owners: readonly CommandOwner[], name: string): CommandDefinition {
  const [module, command] = name.split(':');
  const commands = owners.find((m) => m.name === module)?.commands;
  const found = commands && command !== undefined && Object.hasOwn(commands, command) ? commands[command] : undefined;
  if (!found) {
    const list = commandList(owners).map((c) => `  ${c.name}: ${c.describe}`);
    throw new Error(`no command ${name}; the commands are:\n${list.join('\n')}`);
  }
  return found;
}

/** The platform's own commands (`platform:<command>`), over every module's collections. */
export const PLATFORM_COMMANDS: CommandOwner = {
  name: 'platform',
  commands: {
    // Every time field of the documents apps listen to that is still epoch ms becomes a Firestore Timestamp
    // (idempotent; run it once the code writing Timestamps is deployed).
    'migrate-listened-times': {
      describe: 'converts the epoch-ms times of listened documents to Firestore Timestamps',
      load: () => async (ctx) => {
        const { migrateListenedTimes } = require('../../kits/firestore/migrate-times') as typeof import('../../kits/firestore/migrate-times');
        const skipped = (p: { skipped?: number }) => (p.skipped ? `, ${p.skipped} skipped` : '');
        const report = await migrateListenedTimes(ctx.listened, (p) =>
          ctx.log(`  ${p.document}: page ${p.pages}, ${p.read} read, ${p.converted} converted${skipped(p)} so far`),
        );
        ctx.log(`done: ${report.map((p) => `${p.document} ${p.converted}/${p.read}${skipped(p)}`).join(', ')}`);
      },
    },
  },
};

/** Runs one command (scripts/stack.mjs module …) and resolves to its exit status. */
export async function runCommand(owners: readonly CommandOwner[], name: string, ctx: CommandContext): Promise<number> {
  const command = findCommand(owners, name);
  try {
    return (await command.load()(ctx)) ?? 0;
  } catch (e) {
    console.error(`[superapp] ERROR: ${(e as Error).message}`);
    return 1;
  }
}
