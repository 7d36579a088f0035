import { parseCidr } from '../http/client-ip';
import {
  configSchema,
  parseBooleanWord,
  PAYMENT_GATEWAY_CREDENTIALS,
  PAYMENT_GATEWAY_URLS,
  SECRET_KEYS,
  SMS_PROVIDER_REQUIREMENTS,
  type AppConfig,
} from './config.schema';

export const MIN_JWT_SECRET_LENGTH = 32;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration, the API refuses to boot:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

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

// The spec's production rules, checked on the raw values so that every violation is reported at once.
export function productionViolations(env: Env): string[] {
  if (!productionRequested(env)) return [];
  const problems: string[] = [];
  if ((env.OTP_DEV_CODE ?? '').trim() !== '') problems.push('OTP_DEV_CODE must not be set in production');
  for (const key of ['JWT_SECRET', 'JWT_REFRESH_SECRET'] as const) {
    const value = env[key] ?? '';
    // A missing secret is reported by the schema ("is required"); here only its strength.
    if (value.length < MIN_JWT_SECRET_LENGTH) problems.push(`${key} must be at least ${MIN_JWT_SECRET_LENGTH} characters in production`);
  }
  if (env.JWT_SECRET && env.JWT_SECRET === env.JWT_REFRESH_SECRET) problems.push('JWT_SECRET and JWT_REFRESH_SECRET must differ');
  if ((env.OTP_CHANNEL ?? 'email').trim() !== 'email') problems.push('OTP_CHANNEL must be "email" in production');
  if ((env.SMS_PROVIDER ?? 'console').trim() === 'console') problems.push('SMS_PROVIDER must not be "console" in production (use http, twilio or esms)');
  if (parseBooleanWord(env.PAYMENTS_MOCK) ?? true) problems.push('PAYMENTS_MOCK must be false in production');
  if ((env.SMTP_HOST ?? '').trim() === '') problems.push('SMTP_HOST must be set in production (email OTP)');
  // Gateways call this address with money news: plain http could be read and forged on the way.
  const ipnBase = (env.PAYMENTS_IPN_BASE_URL ?? '').trim();
  if (!ipnBase.startsWith('https://')) problems.push("PAYMENTS_IPN_BASE_URL must be an https address in production (the gateways' notification address)");
  for (const key of ['VNPAY_PAY_URL', 'VNPAY_API_URL', 'MOMO_ENDPOINT'] as const) {
    const value = (env[key] ?? '').trim();
    if (value !== '' && !value.startsWith('https://')) problems.push(`${key} must be https in production`);
  }
  // Unset, these fall back to the gateways' sandbox hosts: a configured gateway must name its production ones.
  for (const [gateway, urls] of Object.entries(PAYMENT_GATEWAY_URLS)) {
    const configured = PAYMENT_GATEWAY_CREDENTIALS[gateway as keyof typeof PAYMENT_GATEWAY_CREDENTIALS].some((key) => (env[key] ?? '').trim() !== '');
    for (const key of configured ? urls : []) {
      if ((env[key] ?? '').trim() === '') problems.push(`${key} must be set in production when ${gateway} is configured (unset, it is the sandbox host)`);
    }
  }
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

export function parseConfig(env: Env): AppConfig {
  const problems: string[] = [];
  // On a deployed instance the parsed NODE_ENV is production, so every switch that keys on it agrees.
  // Parsed once per instance, at cold start: compiling zod's fast path for it costs more than it saves (~3 ms).
  const parsed = configSchema.safeParse(runsOnGoogleCloud(env) ? { ...env, NODE_ENV: 'production' } : env, { jitless: true });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(`${issue.path.join('.') || 'env'} ${issue.message}`);
  }
  if (parsed.success) {
    for (const key of SMS_PROVIDER_REQUIREMENTS[parsed.data.SMS_PROVIDER]) {
      if (parsed.data[key] === undefined) problems.push(`${key} is required when SMS_PROVIDER=${parsed.data.SMS_PROVIDER}`);
    }
    if (parsed.data.ROUTING_PROVIDER === 'osrm' && !parsed.data.OSRM_URL) problems.push('OSRM_URL is required when ROUTING_PROVIDER=osrm');
    // Behind Hosting the edge's address is found TRUST_PROXY hops from the right: without a count (or with `true`,
    // the left-most entry, which the client writes) the Fastly-Client-IP check would look at the wrong hop.
    const trust = parsed.data.TRUST_PROXY;
    if (parsed.data.CLIENT_IP_SOURCE === 'hosting' && (trust === false || trust === true))
      problems.push('CLIENT_IP_SOURCE=hosting needs TRUST_PROXY as a hop count (1 on Cloud Functions) or subnets');
    for (const [gateway, keys] of Object.entries(PAYMENT_GATEWAY_CREDENTIALS)) {
      const missing = keys.filter((key) => parsed.data[key] === undefined);
      if (missing.length > 0 && missing.length < keys.length)
        problems.push(`${gateway} is half configured: set ${missing.join(', ')} too (or none of its credentials)`);
    }
  }
  problems.push(...productionViolations(env));
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  return parsed.data;
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
  // Every switch of the schema, set or not.
  for (const key of Object.keys(configSchema.shape)) {
    const value = config[key as keyof AppConfig];
    if ((SECRET_KEYS as readonly string[]).includes(key)) out[key] = value === undefined ? null : '********';
    else if (value === undefined) out[key] = null;
    else if (Array.isArray(value)) out[key] = [...value];
    // RATE_LIMITS: shown as the pairs it was given.
    else if (typeof value === 'object')
      out[key] = Object.entries(value as Record<string, { limit: number; windowSec: number }>).map(([scope, r]) => `${scope}=${r.limit}/${r.windowSec}`);
    else out[key] = value as MaskedValue;
  }
  return out;
}
