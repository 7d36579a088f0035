import { configSchema, parseBooleanWord, SECRET_KEYS, SMS_PROVIDER_REQUIREMENTS, type AppConfig } from './config.schema';

export const MIN_JWT_SECRET_LENGTH = 32;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration, the API refuses to boot:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

// The spec's production rules, checked on the raw values so that every violation is reported at once.
export function productionViolations(env: Env): string[] {
  if ((env.NODE_ENV ?? '').trim() !== 'production') return [];
  const problems: string[] = [];
  if ((env.OTP_DEV_CODE ?? '').trim() !== '') problems.push('OTP_DEV_CODE must not be set in production');
  for (const key of ['JWT_SECRET', 'JWT_REFRESH_SECRET'] as const) {
    const value = env[key] ?? '';
    // A missing secret is reported by the schema ("is required"); here only its strength.
    if (value.length < MIN_JWT_SECRET_LENGTH)
      problems.push(`${key} must be at least ${MIN_JWT_SECRET_LENGTH} characters in production`);
  }
  if (env.JWT_SECRET && env.JWT_SECRET === env.JWT_REFRESH_SECRET)
    problems.push('JWT_SECRET and JWT_REFRESH_SECRET must differ');
  if ((env.OTP_CHANNEL ?? 'email').trim() !== 'email') problems.push('OTP_CHANNEL must be "email" in production');
  if ((env.SMS_PROVIDER ?? 'console').trim() === 'console')
    problems.push('SMS_PROVIDER must not be "console" in production (use http, twilio or esms)');
  if (parseBooleanWord(env.PAYMENTS_MOCK) ?? true) problems.push('PAYMENTS_MOCK must be false in production');
  if ((env.SMTP_HOST ?? '').trim() === '') problems.push('SMTP_HOST must be set in production (email OTP)');
  return problems;
}

export function parseConfig(env: Env): AppConfig {
  const problems: string[] = [];
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(`${issue.path.join('.') || 'env'} ${issue.message}`);
  }
  if (parsed.success) {
    for (const key of SMS_PROVIDER_REQUIREMENTS[parsed.data.SMS_PROVIDER]) {
      if (parsed.data[key] === undefined) problems.push(`${key} is required when SMS_PROVIDER=${parsed.data.SMS_PROVIDER}`);
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
    else out[key] = Array.isArray(value) ? [...value] : (value as MaskedValue);
  }
  return out;
}
