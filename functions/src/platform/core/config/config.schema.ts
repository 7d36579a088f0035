import * as z from 'zod/mini';
import { API_TIMEOUT_SECONDS } from '../deploy/settings';
import { CLIENT_IP_SOURCES, FASTLY_EDGE_RANGES, parseCidr } from '../http/client-ip';
import { LOCALES } from '../../kits/i18n/locales';

// Every env switch of the spec, in one schema. Values arrive as strings (process.env, .env files, secrets).
// Written with zod/mini (same zod core, functions instead of methods): the functions entry validates this
// at every cold start, and mini's tree-shaken ~20 KB load in ~1 ms where the classic API takes ~9 ms.

const TRUE_WORDS = ['true', '1', 'yes', 'on'];
const FALSE_WORDS = ['false', '0', 'no', 'off'];

export function parseBooleanWord(value: string | undefined): boolean | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const word = value.trim().toLowerCase();
  if (TRUE_WORDS.includes(word)) return true;
  if (FALSE_WORDS.includes(word)) return false;
  return undefined;
}

const maybeString = () => z.optional(z.string());
const fail = (ctx: { issues: unknown[] }, input: unknown, message: string) => {
  ctx.issues.push({ code: 'custom', message, input });
  return z.NEVER;
};
const isUrl = z.refine<string>((v) => URL.canParse(v), { message: 'must be a URL' });
const isUrlIfSet = z.refine<string | undefined>((v) => v === undefined || URL.canParse(v), { message: 'must be a URL' });
const withoutTrailingSlash = z.transform((v: string | undefined) => v?.replace(/\/+$/, ''));

const booleanSwitch = (fallback: boolean) =>
  z.pipe(
    maybeString().check(
      z.refine((v) => v === undefined || v.trim() === '' || parseBooleanWord(v) !== undefined, {
        message: `must be one of ${[...TRUE_WORDS, ...FALSE_WORDS].join(', ')}`,
      }),
    ),
    z.transform((v: string | undefined) => parseBooleanWord(v) ?? fallback),
  );

const commaList = z.pipe(
  maybeString(),
  z.transform((v: string | undefined) =>
    (v ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  ),
);

const optionalText = z.pipe(
  maybeString(),
  z.transform((v: string | undefined) => (v === undefined || v.trim() === '' ? undefined : v.trim())),
);

const positiveInt = (fallback: number, max: number, min = 1) =>
  z.pipe(
    maybeString(),
    z.transform((v: string | undefined, ctx) => {
      if (v === undefined || v.trim() === '') return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) return fail(ctx, v, `must be an integer from ${min} to ${max}`);
      return n;
    }),
  );

const urlWithDefault = (fallback: string) =>
  z
    .pipe(
      maybeString(),
      z.transform((v: string | undefined) => (v && v.trim() ? v.trim().replace(/\/+$/, '') : fallback)),
    )
    .check(isUrl);

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

// ISO 3166 country codes (VN, US…), upper-cased.
const countryList = (fallback: string[]) =>
  z.pipe(
    commaList,
    z.transform((list: string[], ctx) => {
      const codes = list.map((code) => code.toUpperCase());
      if (codes.length === 0) return fallback;
      const bad = codes.filter((code) => !/^[A-Z]{2}$/.test(code));
      return bad.length > 0 ? fail(ctx, list.join(','), `"${bad.join('", "')}" is not a two-letter country code such as VN`) : codes;
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

const choice = <const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) => z._default(z.enum(values), fallback);
const requiredSecret = z.string({ error: 'is required' }).check(z.minLength(1, { message: 'is required' }));
const urlOrDefault = (fallback: string) =>
  z
    .pipe(
      maybeString(),
      z.transform((v: string | undefined) => (v && v.trim() ? v.trim() : fallback)),
    )
    .check(isUrl);

export const SMS_PROVIDERS = ['console', 'http', 'twilio', 'esms'] as const;
// email: codes go out by SMTP (nodemailer). console: development only, no mail is sent (use OTP_DEV_CODE).
export const OTP_CHANNELS = ['email', 'console'] as const;
export const NODE_ENVS = ['development', 'test', 'production'] as const;
export const APP_CHECK_MODES = ['off', 'monitor', 'enforce'] as const;

export const configSchema = z.object({
  NODE_ENV: choice(NODE_ENVS, 'development'),
  SWAGGER_ENABLED: booleanSwitch(true),
  HEALTH_DETAIL_ENABLED: booleanSwitch(false),
  OTP_CHANNEL: choice(OTP_CHANNELS, 'email'),
  OTP_DEV_CODE: optionalText.check(z.refine((v) => v === undefined || /^\d{6}$/.test(v), { message: 'must be 6 digits' })),
  SMS_PROVIDER: choice(SMS_PROVIDERS, 'console'),
  SMS_HTTP_URL: optionalText.check(isUrlIfSet),
  SMS_API_KEY: optionalText,
  PAYMENTS_MOCK: booleanSwitch(true),
  // Where gateways send their notifications (IPN): the public base of the API, https in production.
  PAYMENTS_IPN_BASE_URL: z.pipe(optionalText.check(isUrlIfSet), withoutTrailingSlash),
  PAYMENTS_EXPIRY_SEC: positiveInt(15 * 60, 24 * 3600, 10),
  PAYMENTS_REFUND_WINDOW_DAYS: positiveInt(7, 365),
  WALLET_DAILY_TRANSFER_LIMIT_VND: positiveInt(20_000_000, 1_000_000_000, 1_000),
  // Admin adjustments above this wait for a second administrator's approval (0: every adjustment does).
  WALLET_ADJUSTMENT_APPROVAL_VND: positiveInt(5_000_000, 50_000_000, 0),
  TIP_MAX_COUNT: positiveInt(1, 5),
  TIP_WINDOW_SEC: positiveInt(24 * 3600, 7 * 24 * 3600, 60),
  RIDE_SEARCH_RADIUS_M: positiveInt(3_000, 20_000, 200),
  // Documents one nearby request (catalogs, drivers on the map) may read; a page in a denser area ends earlier.
  NEARBY_READ_BUDGET: positiveInt(400, 5_000, 50),
  RIDE_COMMISSION_BP: positiveInt(2_000, 5_000, 0),
  RIDE_CANCEL_FEE_VND: positiveInt(10_000, 200_000, 0),
  RIDE_CANCEL_GRACE_SEC: positiveInt(120, 3_600, 0),
  RIDE_CANCEL_WAIT_SEC: positiveInt(120, 3_600, 0),
  RIDE_ARRIVED_TIMEOUT_SEC: positiveInt(1_200, 4 * 3_600, 60),
  RIDE_TRIP_TIMEOUT_FACTOR: positiveInt(3, 20, 1),
  RIDE_TRIP_TIMEOUT_MIN_SEC: positiveInt(1_800, 12 * 3_600, 60),
  RIDE_ARRIVE_RADIUS_M: positiveInt(200, 5_000, 10),
  RIDE_COMPLETE_RADIUS_M: positiveInt(500, 20_000, 10),
  RIDE_COMPLETE_MIN_DRIVEN_BP: positiveInt(5_000, 10_000, 0),
  RIDE_POSITION_FRESH_SEC: positiveInt(120, 3_600, 5),
  RIDE_HOLD_EXPIRY_SEC: positiveInt(900, 24 * 3_600, 60),
  RIDE_DISPUTE_WINDOW_DAYS: positiveInt(7, 90, 1),
  DRIVER_MAX_SPEED_KMH: positiveInt(200, 2_000, 10),
  ROUTING_PROVIDER: choice(['estimator', 'osrm'], 'estimator'),
  OSRM_URL: z.pipe(optionalText.check(isUrlIfSet), withoutTrailingSlash),
  VNPAY_TMN_CODE: optionalText,
  VNPAY_HASH_SECRET: optionalText,
  VNPAY_PAY_URL: urlWithDefault('https://sandbox.vnpayment.vn/paymentv2/vpcpay.html'),
  VNPAY_API_URL: urlWithDefault('https://sandbox.vnpayment.vn/merchant_webapi/api/transaction'),
  MOMO_PARTNER_CODE: optionalText,
  MOMO_ACCESS_KEY: optionalText,
  MOMO_SECRET_KEY: optionalText,
  MOMO_ENDPOINT: urlWithDefault('https://test-payment.momo.vn'),
  TRUST_PROXY: trustProxy,
  // Where the caller's address comes from (platform/core/http/client-ip): the function's own URL, a Hosting rewrite, or the socket.
  CLIENT_IP_SOURCE: choice(CLIENT_IP_SOURCES, 'direct'),
  HOSTING_EDGE_RANGES: cidrList,
  // CLIENT_IP_SOURCE=hosting: each per-IP limit also caps one Hosting edge's total at this multiple (0: no cap), since
  // any Fastly service can make up Fastly-Client-IP (platform/core/http/client-ip).
  HOSTING_EDGE_LIMIT_FACTOR: positiveInt(50, 100_000, 0),
  // Firebase App Check on the app-facing routes: off, monitor (log and go on) or enforce (401 without a valid token).
  APP_CHECK: choice(APP_CHECK_MODES, 'off'),
  // Countries whose numbers get SMS codes (the defence against SMS toll fraud); any valid number is accepted elsewhere.
  SMS_COUNTRIES: countryList(['VN']),
  CORS_ORIGINS: commaList,
  API_PUBLIC_URL: urlWithDefault('http://127.0.0.1:5000'),
  SMTP_HOST: optionalText,
  SMTP_PORT: positiveInt(587, 65535),
  SMTP_USER: optionalText,
  SMTP_PASS: optionalText,
  SMTP_FROM: optionalText,
  ADMIN_EMAILS: z
    .pipe(
      commaList,
      z.transform((list: string[]) => list.map((e) => e.toLowerCase())),
    )
    .check(z.refine((list) => list.every((e) => z.email().safeParse(e).success), { message: 'must be a comma-separated list of emails' })),
  BCRYPT_COST: positiveInt(10, 15, 10),
  ACCESS_TOKEN_TTL_SEC: positiveInt(15 * 60, 24 * 3600, 60),
  REFRESH_TOKEN_TTL_SEC: positiveInt(30 * 24 * 3600, 365 * 24 * 3600, 300),
  // How long after a rotation the previous refresh token may still be retried for a lost answer (an access token's life).
  REFRESH_LOST_ANSWER_SEC: positiveInt(15 * 60, 24 * 3600, 10),
  GOOGLE_CLIENT_IDS: commaList,
  GOOGLE_CERTS_URL: urlOrDefault('https://www.googleapis.com/oauth2/v1/certs'),
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
  KYC_MAX_FILE_BYTES: positiveInt(10 * 1024 * 1024, 50 * 1024 * 1024),
  CALL_RING_TIMEOUT_SEC: positiveInt(30, 120, 2),
  CHAT_GROUP_ADDS_DEFAULT: choice(['INVITATION', 'DIRECT'], 'INVITATION'),
  // The language of accounts that never chose one, and of registrations whose Accept-Language names neither.
  DEFAULT_LOCALE: choice(LOCALES, 'vi'),
  PUSH_TRANSPORT: choice(['auto', 'fcm', 'outbox'], 'auto'),
  MESSAGE_DELIVERY: choice(['auto', 'queue', 'background'], 'auto'),
  JWT_SECRET: requiredSecret,
  JWT_REFRESH_SECRET: requiredSecret,
  MEDIA_MAX_FILES: positiveInt(10, 10),
  MEDIA_MAX_FILE_BYTES: positiveInt(15 * 1024 * 1024, 32 * 1024 * 1024),
  MEDIA_PRESIGN_TTL_SEC: positiveInt(15 * 60, 24 * 3600, 60),
  JSON_BODY_LIMIT_BYTES: positiveInt(100 * 1024, 10 * 1024 * 1024),
  // Below the `api` function's timeout (API_TIMEOUT_SECONDS) and a mobile client's usual 30 s: the server answers first.
  REQUEST_DEADLINE_MS: positiveInt(25_000, (API_TIMEOUT_SECONDS - 10) * 1000, 100),
  // Uploads stream their body while it is stored: a slow link gets the longest deadline the function timeout allows.
  // Handlers of one instance still running after their 503: at this many, new requests are refused (503 OVERLOADED); 0: off.
  DEADLINE_OVERDUE_LIMIT: positiveInt(0, 10_000, 0),
  UPLOAD_DEADLINE_MS: positiveInt((API_TIMEOUT_SECONDS - 10) * 1000, (API_TIMEOUT_SECONDS - 10) * 1000, 100),
  LOG_REQUESTS: booleanSwitch(false),
  RATE_LIMITS: rateLimitOverrides,
});

export type AppConfig = z.output<typeof configSchema>;

// What each SMS adapter cannot work without (checked at boot in every environment).
export const SMS_PROVIDER_REQUIREMENTS: Record<(typeof SMS_PROVIDERS)[number], ReadonlyArray<keyof AppConfig>> = {
  console: [],
  http: ['SMS_HTTP_URL'],
  twilio: ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'],
  esms: ['ESMS_API_KEY', 'ESMS_SECRET_KEY', 'ESMS_BRANDNAME'],
};

// Values never shown in full (health diagnostics, logs).
export const SECRET_KEYS: ReadonlyArray<keyof AppConfig> = [
  'JWT_SECRET',
  'JWT_REFRESH_SECRET',
  'SMTP_PASS',
  'SMS_API_KEY',
  'OTP_DEV_CODE',
  'TWILIO_AUTH_TOKEN',
  'ESMS_SECRET_KEY',
  'ESMS_API_KEY',
  'VNPAY_HASH_SECRET',
  'MOMO_SECRET_KEY',
];

// A payment gateway is configured with all of its credentials or none (a half-configured one is a boot error).
export const PAYMENT_GATEWAY_CREDENTIALS = {
  VNPAY: ['VNPAY_TMN_CODE', 'VNPAY_HASH_SECRET'],
  MOMO: ['MOMO_PARTNER_CODE', 'MOMO_ACCESS_KEY', 'MOMO_SECRET_KEY'],
} as const satisfies Record<string, ReadonlyArray<keyof AppConfig>>;

// The gateway addresses that default to sandbox hosts: required in production for a configured gateway.
export const PAYMENT_GATEWAY_URLS = {
  VNPAY: ['VNPAY_PAY_URL', 'VNPAY_API_URL'],
  MOMO: ['MOMO_ENDPOINT'],
} as const satisfies Record<keyof typeof PAYMENT_GATEWAY_CREDENTIALS, ReadonlyArray<keyof AppConfig>>;
