import * as z from 'zod/mini';
import { API_TIMEOUT_SECONDS } from '../deploy/settings';
import { CLIENT_IP_SOURCES, FASTLY_EDGE_RANGES, parseCidr } from '../http/client-ip';
import { LOCALES } from '../../kits/i18n/locales';
import {
  booleanSwitch,
  choice,
  commaList,
  fail,
  isUrlIfSet,
  maybeString,
  optionalText,
  parseBooleanWord,
  positiveInt,
  requiredSecret,
  urlWithDefault,
  type ModuleConfig,
} from './switches';

export { parseBooleanWord };

// The platform's env switches (what the kits and the platform read); each module declares its own beside its code
// (`modules/<m>/<m>.config.ts`, named in its definition) and the configuration validates them all at once (config.ts).
// The builders are shared (switches.ts). Their effects, for docs/configuration.md: scripts/lib/config-switches.cjs.

// Express `trust proxy`: true/false, a hop count, or a list of subnets/presets.
export type TrustProxy = boolean | number | string;
const trustProxy = z.pipe(
  maybeString(),
  z.transform((v: string | undefined): TrustProxy => {
    if (v === undefined || v.trim() === '') return false;
    const asBool = parseBooleanWord(v);
    if (asBool !== undefined && !/^\d+$/.test(v.trim())) return asBool;
    if (/^\d+$/.test(v.trim())) return Number(v.trim());
    return v.trim();
  }),
);

// The CDN edges whose Fastly-Client-IP is believed (CLIENT_IP_SOURCE=hosting): CIDR ranges, Fastly's by default.
const cidrList = z.pipe(
  commaList,
  z.transform((list: string[], ctx) => {
    if (list.length === 0) return [...FASTLY_EDGE_RANGES];
    const bad = list.filter((range) => !parseCidr(range));
    return bad.length > 0 ? fail(ctx, list.join(','), `"${bad.join('", "')}" is not an address range such as 151.101.0.0/16`) : list;
  }),
);

// Per-IP limits as `scope=limit/windowSec` pairs, e.g. `auth-register=100/600,auth-login=300/300`: each
// replaces the built-in limit of that scope (scopes are listed in the README); the others keep theirs.
export type RateLimitOverrides = Readonly<Record<string, { limit: number; windowSec: number }>>;
const rateLimitOverrides = z.pipe(
  maybeString(),
  z.transform((v: string | undefined, ctx): RateLimitOverrides => {
    const out: Record<string, { limit: number; windowSec: number }> = {};
    for (const pair of (v ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)) {
      const match = /^([a-z0-9-]+)=(\d{1,7})\/(\d{1,6})$/.exec(pair);
      const limit = Number(match?.[2]);
      const windowSec = Number(match?.[3]);
      if (!match || limit < 1 || windowSec < 1 || windowSec > 86_400)
        return fail(ctx, v, `"${pair}" is not scope=limit/windowSec (limit ≥ 1, window 1..86400 s)`);
      out[match[1]] = { limit, windowSec };
    }
    return out;
  }),
);

export const SMS_PROVIDERS = ['console', 'http', 'twilio', 'esms'] as const;
// email: codes go out by SMTP (nodemailer). console: development only, no mail is sent (use OTP_DEV_CODE).
export const OTP_CHANNELS = ['email', 'console'] as const;
export const NODE_ENVS = ['development', 'test', 'production'] as const;
export const APP_CHECK_MODES = ['off', 'monitor', 'enforce'] as const;

export const configSchema = z.object({
  NODE_ENV: choice(NODE_ENVS, 'development'),
  SWAGGER_ENABLED: booleanSwitch(true),
  OTP_CHANNEL: choice(OTP_CHANNELS, 'email'),
  SMS_PROVIDER: choice(SMS_PROVIDERS, 'console'),
  SMS_HTTP_URL: optionalText.check(isUrlIfSet),
  SMS_API_KEY: optionalText,
  // Documents one nearby request (catalogs, drivers on the map) may read; a page in a denser area ends earlier.
  NEARBY_READ_BUDGET: positiveInt(400, 5_000, 50),
  TRUST_PROXY: trustProxy,
  // Where the caller's address comes from (platform/core/http/client-ip): the function's own URL, a Hosting rewrite, or the socket.
  CLIENT_IP_SOURCE: choice(CLIENT_IP_SOURCES, 'direct'),
  HOSTING_EDGE_RANGES: cidrList,
  // CLIENT_IP_SOURCE=hosting: each per-IP limit also caps one Hosting edge's total at this multiple (0: no cap), since
  // any Fastly service can make up Fastly-Client-IP (platform/core/http/client-ip).
  HOSTING_EDGE_LIMIT_FACTOR: positiveInt(50, 100_000, 0),
  // Firebase App Check on the app-facing routes: off, monitor (log and go on) or enforce (401 without a valid token).
  APP_CHECK: choice(APP_CHECK_MODES, 'off'),
  CORS_ORIGINS: commaList,
  API_PUBLIC_URL: urlWithDefault('http://127.0.0.1:5000'),
  SMTP_HOST: optionalText,
  SMTP_PORT: positiveInt(587, 65535),
  SMTP_USER: optionalText,
  SMTP_PASS: optionalText,
  SMTP_FROM: optionalText,
  TWILIO_ACCOUNT_SID: optionalText,
  TWILIO_AUTH_TOKEN: optionalText,
  TWILIO_FROM: optionalText,
  TWILIO_API_BASE: urlWithDefault('https://api.twilio.com'),
  ESMS_API_KEY: optionalText,
  ESMS_SECRET_KEY: optionalText,
  ESMS_BRANDNAME: optionalText,
  ESMS_API_BASE: urlWithDefault('https://rest.esms.vn'),
  STORAGE_DRIVER: choice(['auto', 'local', 'gcs'], 'auto'),
  STORAGE_BUCKET: optionalText,
  STORAGE_LOCAL_DIR: optionalText,
  // The language of accounts that never chose one, and of registrations whose Accept-Language names neither.
  DEFAULT_LOCALE: choice(LOCALES, 'vi'),
  MESSAGE_DELIVERY: choice(['auto', 'queue', 'background'], 'auto'),
  JWT_SECRET: requiredSecret,
  JWT_REFRESH_SECRET: requiredSecret,
  JSON_BODY_LIMIT_BYTES: positiveInt(100 * 1024, 10 * 1024 * 1024),
  // Below the `api` function's timeout (API_TIMEOUT_SECONDS) and a mobile client's usual 30 s: the server answers first.
  REQUEST_DEADLINE_MS: positiveInt(25_000, (API_TIMEOUT_SECONDS - 10) * 1000, 100),
  // Handlers of one instance still running after their 503: at this many, new requests are refused (503 OVERLOADED); 0: off.
  DEADLINE_OVERDUE_LIMIT: positiveInt(0, 10_000, 0),
  // Uploads stream their body while it is stored: a slow link gets the longest deadline the function timeout allows.
  UPLOAD_DEADLINE_MS: positiveInt((API_TIMEOUT_SECONDS - 10) * 1000, (API_TIMEOUT_SECONDS - 10) * 1000, 100),
  LOG_REQUESTS: booleanSwitch(false),
  RATE_LIMITS: rateLimitOverrides,
});

/** The platform's switches with every module's (ModuleConfig: their `<m>.config.ts` fragments), as validated at boot. */
export type AppConfig = z.output<typeof configSchema> & ModuleConfig;
export type PlatformConfig = z.output<typeof configSchema>;

// What each SMS adapter cannot work without (checked at boot in every environment).
export const SMS_PROVIDER_REQUIREMENTS: Record<(typeof SMS_PROVIDERS)[number], ReadonlyArray<keyof PlatformConfig>> = {
  console: [],
  http: ['SMS_HTTP_URL'],
  twilio: ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'],
  esms: ['ESMS_API_KEY', 'ESMS_SECRET_KEY', 'ESMS_BRANDNAME'],
};

// The platform's values never shown in full (health diagnostics, logs); modules mark theirs `secret` (secretKeys()).
export const PLATFORM_SECRET_KEYS: ReadonlyArray<keyof PlatformConfig> = [
  'JWT_SECRET',
  'JWT_REFRESH_SECRET',
  'SMTP_PASS',
  'SMS_API_KEY',
  'TWILIO_AUTH_TOKEN',
  'ESMS_SECRET_KEY',
  'ESMS_API_KEY',
];
