import * as z from 'zod/mini';
import { parseCidr } from '../http/client-ip';
import { configSchema, SMS_PROVIDER_REQUIREMENTS, type AppConfig, type PlatformConfig } from './config.schema';
import { installedSwitches, secretKeys, type ModuleSwitches } from './module-switches';
import { parseBooleanWord, type Env } from './switches';

export const MIN_JWT_SECRET_LENGTH = 32;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration, the API refuses to boot:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

// A deployed instance (Cloud Functions sets K_SERVICE / FUNCTION_TARGET) that is not the emulator.
// It is production whatever NODE_ENV says: a development value shipped in a deployed .env must not
// turn the production rules off.
export function runsOnGoogleCloud(env: Env): boolean {
  const deployed = (env.K_SERVICE ?? '').trim() !== '' || (env.FUNCTION_TARGET ?? '').trim() !== '';
  return deployed && (env.FUNCTIONS_EMULATOR ?? '').trim() !== 'true';
}

export function productionRequested(env: Env): boolean {
  return (env.NODE_ENV ?? '').trim() === 'production' || runsOnGoogleCloud(env);
}

// The spec's production rules, the platform's then each module's (its fragment's `production`), checked on the raw
// values so that every violation is reported at once.
export function productionViolations(env: Env): string[] {
  if (!productionRequested(env)) return [];
  return [...platformProductionViolations(env), ...installedSwitches().flatMap(({ switches }) => switches.production?.(env) ?? [])];
}

function platformProductionViolations(env: Env): string[] {
  const problems: string[] = [];
  for (const key of ['JWT_SECRET', 'JWT_REFRESH_SECRET'] as const) {
    const value = env[key] ?? '';
    // A missing secret is reported by the schema ("is required"); here only its strength.
    if (value.length < MIN_JWT_SECRET_LENGTH) problems.push(`${key} must be at least ${MIN_JWT_SECRET_LENGTH} characters in production`);
  }
  if (env.JWT_SECRET && env.JWT_SECRET === env.JWT_REFRESH_SECRET) problems.push('JWT_SECRET and JWT_REFRESH_SECRET must differ');
  if ((env.OTP_CHANNEL ?? 'email').trim() !== 'email') problems.push('OTP_CHANNEL must be "email" in production');
  if ((env.SMS_PROVIDER ?? 'console').trim() === 'console') problems.push('SMS_PROVIDER must not be "console" in production (use http, twilio or esms)');
  if ((env.SMTP_HOST ?? '').trim() === '') problems.push('SMTP_HOST must be set in production (email OTP)');
  // `true` trusts every X-Forwarded-For entry: a client could choose its own IP (rate limits, sessions).
  const trustProxy = (env.TRUST_PROXY ?? '').trim();
  if (parseBooleanWord(trustProxy) === true && !/^\d+$/.test(trustProxy))
    problems.push('TRUST_PROXY must not be "true" in production (use a hop count such as 1, or subnets)');
  // On Cloud Functions the socket's peer is Google's front end: without a hop count every caller would be keyed
  // on it, one rate-limit bucket for all users (and one address in every session).
  const source = (env.CLIENT_IP_SOURCE ?? '').trim() || 'direct';
  if (runsOnGoogleCloud(env) && (source === 'direct' || source === 'hosting') && !(/^\d+$/.test(trustProxy) && Number(trustProxy) >= 1))
    problems.push(
      `TRUST_PROXY must be a hop count of at least 1 on Cloud Functions with CLIENT_IP_SOURCE=${source} (1: the entry Google's front end appends); otherwise every caller shares the front end's address and rate-limit bucket`,
    );
  // A range this wide is not a CDN's edges: it would let most of the internet vouch for its own Fastly-Client-IP.
  for (const range of (env.HOSTING_EDGE_RANGES ?? '')
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean)) {
    const cidr = parseCidr(range);
    if (cidr && cidr.prefix < (cidr.family === 'ipv4' ? 12 : 24))
      problems.push(
        `HOSTING_EDGE_RANGES entry ${range} is wider than /${cidr.family === 'ipv4' ? 12 : 24} (${cidr.family === 'ipv4' ? 'IPv4' : 'IPv6'}): list the CDN's edge ranges, not a whole block of the internet`,
      );
  }
  return problems;
}

// The platform's schema with every installed module's switches: one object, so every bad value is reported at once
// (the platform's first, then the modules' in module order). Built once per set of installed fragments.
function compose(installed: readonly ModuleSwitches[]) {
  const moduleShape: Record<string, z.ZodMiniType> = {};
  for (const { switches } of installed) for (const [key, s] of Object.entries(switches.switches)) moduleShape[key] = s.schema;
  return z.object({ ...configSchema.shape, ...moduleShape });
}
let composed: { from: readonly ModuleSwitches[]; schema: ReturnType<typeof compose> } | undefined;
function fullSchema() {
  const installed = installedSwitches();
  if (composed?.from !== installed) composed = { from: installed, schema: compose(installed) };
  return composed.schema;
}

export function parseConfig(env: Env): AppConfig {
  const problems: string[] = [];
  // On a deployed instance the parsed NODE_ENV is production, so every switch that keys on it agrees.
  // Parsed once per instance, at cold start: compiling zod's fast path for it costs more than it saves (~3 ms).
  const parsed = fullSchema().safeParse(runsOnGoogleCloud(env) ? { ...env, NODE_ENV: 'production' } : env, { jitless: true });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(`${issue.path.join('.') || 'env'} ${issue.message}`);
  }
  if (parsed.success) {
    problems.push(...platformRules(parsed.data));
    // Each module's rules across its switches (a gateway's credentials all or none, a provider's address).
    for (const { switches } of installedSwitches()) problems.push(...(switches.check?.(parsed.data) ?? []));
  }
  problems.push(...productionViolations(env));
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  // Typed by the fragments' declarations (ModuleConfig); installSwitches made every key of them part of the schema.
  return parsed.data as AppConfig;
}

function platformRules(data: PlatformConfig): string[] {
  const problems: string[] = [];
  for (const key of SMS_PROVIDER_REQUIREMENTS[data.SMS_PROVIDER]) {
    if (data[key] === undefined) problems.push(`${key} is required when SMS_PROVIDER=${data.SMS_PROVIDER}`);
  }
  // Behind Hosting the edge's address is found TRUST_PROXY hops from the right: without a count (or with `true`,
  // the left-most entry, which the client writes) the Fastly-Client-IP check would look at the wrong hop.
  const trust = data.TRUST_PROXY;
  if (data.CLIENT_IP_SOURCE === 'hosting' && (trust === false || trust === true))
    problems.push('CLIENT_IP_SOURCE=hosting needs TRUST_PROXY as a hop count (1 on Cloud Functions) or subnets');
  return problems;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

let current: Readonly<AppConfig> | undefined;

// Validated once per process (cold start) and frozen.
export function getConfig(): Readonly<AppConfig> {
  current ??= deepFreeze(parseConfig(process.env));
  return current;
}

// True on deployed instances too (parseConfig sets NODE_ENV to production there).
export function isProduction(config: Readonly<AppConfig>): boolean {
  return config.NODE_ENV === 'production';
}

export type MaskedValue = string | number | boolean | string[] | null;

// Diagnostics view: secrets are reduced to whether they are set.
export function maskConfig(config: Readonly<AppConfig>): Record<string, MaskedValue> {
  const out: Record<string, MaskedValue> = {};
  const secrets = new Set(secretKeys());
  // Every switch of the configuration (the platform's and the modules'), set or not.
  for (const key of Object.keys(fullSchema().shape)) {
    const value = config[key as keyof AppConfig];
    if (secrets.has(key)) out[key] = value === undefined ? null : '********';
    else if (value === undefined) out[key] = null;
    else if (Array.isArray(value)) out[key] = [...value];
    // RATE_LIMITS: shown as the pairs it was given.
    else if (typeof value === 'object')
      out[key] = Object.entries(value as Record<string, { limit: number; windowSec: number }>).map(([scope, r]) => `${scope}=${r.limit}/${r.windowSec}`);
    else out[key] = value as MaskedValue;
  }
  return out;
}
