import { ConfigError, parseConfig } from '../config/config';
import { secretKeys } from '../config/module-switches';
import type { CollectionDefinition } from '../../kits/firestore/collections';
import { missingIndexes, type CompositeIndex } from './indexes';
import type { QueryShape } from './query-log';
import { functionsRegion } from './settings';

// What `npm run deploy:check` verifies before a `firebase deploy`, offline. Each check returns its problems (empty:
// passed); scripts/deploy-check.mjs gathers the inputs from the repository and prints the verdicts.

const LOCAL_ADDRESS = /\b(127\.0\.0\.1|localhost|0\.0\.0\.0)\b/i;

/**
 * The production configuration of a project: its env files (functions/.env then .env.<projectId>) with the declared
 * secrets as Secret Manager would provide them, validated as an instance on Cloud Functions validates it at boot,
 * plus what only a deploy can get wrong: a secret written into an env file, a local address, local storage.
 */
export function productionEnvProblems(env: Record<string, string>, secrets: string[]): string[] {
  const problems: string[] = [];
  const known = secretKeys();
  for (const name of secrets) {
    if (!known.includes(name)) problems.push(`FUNCTIONS_SECRETS names ${name}, which is not a secret the configuration reads (${known.join(', ')})`);
    if (env[name] !== undefined) problems.push(`${name} is written in the env file: secrets go to Secret Manager (firebase functions:secrets:set ${name})`);
  }
  for (const [key, value] of Object.entries(env)) {
    if (LOCAL_ADDRESS.test(value)) problems.push(`${key}=${value} points at this machine, not at a production service`);
  }
  if ((env.STORAGE_DRIVER ?? '').trim() === 'local') problems.push('STORAGE_DRIVER=local keeps uploads on the instance disk; use gcs (or auto) in production');
  try {
    functionsRegion(env);
  } catch (err) {
    problems.push((err as Error).message);
  }
  // Placeholders shaped like real values (32+ distinct characters for the JWT pair).
  const provided = Object.fromEntries(secrets.map((name, i) => [name, `secret-manager-value-${name.toLowerCase()}-${i}-0123456789abcdef`]));
  try {
    parseConfig({ ...env, ...provided, K_SERVICE: 'api', FUNCTION_TARGET: 'api' });
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    problems.push(...err.problems);
  }
  return problems;
}

/** Each declared secret has its `firebase functions:secrets:set NAME` line in the deploy guide. */
export function undocumentedSecrets(secrets: string[], guide: string): string[] {
  return secrets.filter((name) => !new RegExp(`functions:secrets:set ${name}\\b`).test(guide));
}

interface Rewrite {
  source?: string;
  function?: string | { functionId: string; region?: string };
}

/** Hosting rewrites name functions the entry exports, in the configured region (and those functions run there). */
export function rewriteProblems(rewrites: Rewrite[], functionRegions: Record<string, string[]>, region: string): string[] {
  const problems: string[] = [];
  for (const rewrite of rewrites) {
    if (!rewrite.function) continue;
    const id = typeof rewrite.function === 'string' ? rewrite.function : rewrite.function.functionId;
    const rewriteRegion = typeof rewrite.function === 'string' ? 'us-central1' : (rewrite.function.region ?? 'us-central1');
    if (!(id in functionRegions)) problems.push(`rewrite ${rewrite.source} → ${id}: no such function in the entry`);
    else if (!functionRegions[id].includes(region)) problems.push(`function ${id} runs in ${functionRegions[id].join(', ')}, not ${region}`);
    if (rewriteRegion !== region)
      problems.push(`rewrite ${rewrite.source} → ${id} names region ${rewriteRegion}; the functions run in ${region} (FUNCTIONS_REGION)`);
  }
  return problems;
}

/** Every function of the entry runs in the configured region. */
export function functionRegionProblems(functionRegions: Record<string, string[]>, region: string): string[] {
  return Object.entries(functionRegions)
    .filter(([, regions]) => regions.length !== 1 || regions[0] !== region)
    .map(([name, regions]) => `function ${name} runs in ${regions.join(', ') || 'no region'}, not ${region}`);
}

/** Rules deny by default (so every declared collection is covered), every TTL field has its TTL policy, unindexed fields are exempt. */
export function collectionProblems(
  collections: readonly CollectionDefinition[],
  rules: string,
  fieldOverrides: Array<{ collectionGroup: string; fieldPath: string; ttl?: boolean; indexes?: unknown[] }>,
): string[] {
  const problems: string[] = [];
  if (!/match \/\{document=\*\*\} \{\s*allow read, write: if false;\s*\}/.test(rules))
    problems.push('firestore.rules has no deny-all catch-all: collections without a block would be open');
  const blocks = new Set([...rules.matchAll(/^ {4}match \/([a-z_]+)\//gm)].map((m) => m[1]));
  for (const c of collections) {
    if (c.clientAccess && !c.parent && !blocks.has(c.name)) problems.push(`collection ${c.name} is read by clients but has no rules block`);
    if (c.ttlField && !fieldOverrides.some((f) => f.ttl && f.collectionGroup === c.name && f.fieldPath === c.ttlField))
      problems.push(`collection ${c.name} expires documents by ${c.ttlField} but firestore.indexes.json has no TTL policy for it`);
    for (const field of c.unindexed ?? [])
      if (!fieldOverrides.some((f) => f.collectionGroup === c.name && f.fieldPath === field && f.indexes?.length === 0))
        problems.push(
          `collection ${c.name} keeps ${field} out of every index but firestore.indexes.json has no fieldOverrides entry with "indexes": [] for it`,
        );
  }
  return problems;
}

/** Recorded queries that production would refuse: no composite index in firestore.indexes.json serves them. */
export function indexProblems(queries: QueryShape[], indexes: CompositeIndex[]): string[] {
  return missingIndexes(queries, indexes).map(
    ({ query, needs }) =>
      `query on ${query.collection} (${[...query.filters.map((f) => `${f.field} ${f.op}`), ...query.orderBy.map((o) => `order ${o.field} ${o.direction}`)].join(', ')}) needs the index ${JSON.stringify(needs)}`,
  );
}

/** One row of firebase-tools' runtime table (lib/deploy/functions/runtimes/supported/types.js `RUNTIMES`). */
export interface RuntimeSupport {
  friendly: string;
  deprecationDate: string;
  decommissionDate: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The functions' runtimes (firebase.json) against firebase-tools' own table, as its deploy judges them: a
 * decommissioned runtime is refused (a problem); one deprecated, or due within `warnDays` of its deprecation,
 * deploys with a warning.
 */
export function runtimeProblems(
  runtimes: string[],
  table: Record<string, RuntimeSupport>,
  now: Date,
  warnDays = 90,
): { problems: string[]; warnings: string[] } {
  const problems: string[] = [];
  const warnings: string[] = [];
  if (runtimes.length === 0) problems.push('firebase.json names no functions runtime');
  for (const runtime of new Set(runtimes)) {
    const row = table[runtime];
    if (!row) {
      problems.push(
        `runtime ${runtime} is not one firebase-tools knows (${Object.keys(table)
          .filter((r) => r.startsWith('nodejs'))
          .join(', ')})`,
      );
      continue;
    }
    const deprecation = new Date(row.deprecationDate);
    if (now >= new Date(row.decommissionDate)) {
      problems.push(
        `Runtime ${row.friendly} was decommissioned on ${row.decommissionDate}: firebase deploy refuses it; move firebase.json, the package engines and .nvmrc to a supported runtime`,
      );
    } else if (now >= deprecation) {
      warnings.push(`Runtime ${row.friendly} was deprecated on ${row.deprecationDate} and is decommissioned on ${row.decommissionDate}`);
    } else if (now.getTime() >= deprecation.getTime() - warnDays * DAY_MS) {
      warnings.push(`Runtime ${row.friendly} is deprecated on ${row.deprecationDate} (within ${warnDays} days) and decommissioned on ${row.decommissionDate}`);
    }
  }
  return { problems, warnings };
}

/** What deploy-time discovery reports of one function's scaling (its `__endpoint`). */
export interface EndpointScaling {
  maxInstances?: number | null;
  concurrency?: number | null;
  availableMemoryMb?: number | null;
  cpu?: number | 'gcf_gen1' | null;
}

/**
 * Every function sets a ceiling on instances (cost control) and its concurrency; concurrency above 1 needs a full
 * CPU, which firebase deploy enforces (`memoryToCpu`: firebase-tools' gen-2 memory-to-CPU table).
 */
export function scalingProblems(endpoints: Record<string, EndpointScaling>, memoryToCpu: (memoryMb: number) => number, defaultMemoryMb: number): string[] {
  const problems: string[] = [];
  for (const [name, e] of Object.entries(endpoints)) {
    if (typeof e.maxInstances !== 'number' || e.maxInstances < 1)
      problems.push(`${name} has no maxInstances (set API_MAX_INSTANCES / FUNCTIONS_MAX_INSTANCES or the function's option)`);
    if (typeof e.concurrency !== 'number' || e.concurrency < 1) {
      problems.push(`${name} has no concurrency set`);
      continue;
    }
    const cpu = typeof e.cpu === 'number' ? e.cpu : memoryToCpu(e.availableMemoryMb ?? defaultMemoryMb);
    if (e.concurrency > 1 && (e.cpu === 'gcf_gen1' || cpu < 1))
      problems.push(`${name} runs ${e.concurrency} requests at once on less than one CPU: firebase deploy refuses it`);
  }
  return problems;
}
