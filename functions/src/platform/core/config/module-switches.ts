import { configSchema, PLATFORM_SECRET_KEYS } from './config.schema';
import type { ZodMiniType } from 'zod/mini';
import type { SwitchFragment } from './switches';

// The modules' switch fragments of the running backend, installed by the composition roots before the configuration
// is read: the functions entry installs MODULE_SWITCHES (src/module-switches.generated.ts: the fragments without the
// module definitions, so the cold start stays light) and src/modules installs its definitions' `config`. Kept on the
// global object like the module registry: the entry's bundle installs what the lazily loaded runtime bundle reads.

export interface ModuleSwitches {
  /** The module that declares them. */
  readonly module: string;
  readonly switches: SwitchFragment;
}

const SLOT = Symbol.for('superapp.moduleSwitches');
const slot = globalThis as { [SLOT]?: readonly ModuleSwitches[] };

/** Installs every module's fragment (replacing the ones installed before); a switch declared twice is refused. */
export function installSwitches(fragments: readonly ModuleSwitches[]): void {
  const owners = new Map<string, string>(Object.keys(configSchema.shape).map((key) => [key, 'the platform']));
  for (const { module, switches } of fragments) {
    for (const key of Object.keys(switches.switches)) {
      const owner = owners.get(key);
      if (owner !== undefined) throw new Error(`config switch ${key} is declared by ${owner} and by module ${module}`);
      owners.set(key, `module ${module}`);
    }
  }
  slot[SLOT] = Object.freeze([...fragments]);
}

/** The installed fragments, in module order; throws before any composition root installed them. */
export function installedSwitches(): readonly ModuleSwitches[] {
  const installed = slot[SLOT];
  if (!installed) throw new Error("the modules' config switches are not installed: load src/modules (the composition root) or install MODULE_SWITCHES first");
  return installed;
}

export interface SwitchRow {
  key: string;
  /** `platform` or the module's name. */
  owner: string;
  schema: ZodMiniType;
  /** The module's text (the platform's are in scripts/lib/config-switches.cjs). */
  effect?: string;
  secret: boolean;
}

/** Every switch of the configuration: the platform's in schema order, then each module's in module order. */
export function configSwitches(): SwitchRow[] {
  const secrets = new Set<string>(PLATFORM_SECRET_KEYS);
  return [
    ...Object.entries(configSchema.shape).map(([key, schema]) => ({ key, owner: 'platform', schema, secret: secrets.has(key) })),
    ...installedSwitches().flatMap(({ module, switches }) =>
      Object.entries(switches.switches).map(([key, s]) => ({ key, owner: module, schema: s.schema, effect: s.effect, secret: s.secret === true })),
    ),
  ];
}

/** Values never shown in full (health diagnostics, logs), and the only names FUNCTIONS_SECRETS may bind. */
export function secretKeys(): string[] {
  return configSwitches()
    .filter((row) => row.secret)
    .map((row) => row.key);
}
