import { ConfigError, maskConfig, parseConfig, productionViolations, runsOnGoogleCloud } from '../../src/platform/core/config';
import { testConfig, VALID_PRODUCTION_ENV } from '../helpers/config';

function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    parseConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('config schema', () => {
  it('applies the documented defaults', () => {
    const config = testConfig();
    expect(config).toMatchObject({
      NODE_ENV: 'development',
      SWAGGER_ENABLED: true,
      HEALTH_DETAIL_ENABLED: false,
      OTP_CHANNEL: 'email',
      SMS_PROVIDER: 'console',
      PAYMENTS_MOCK: true,
      TRUST_PROXY: false,
      CORS_ORIGINS: [],
      API_PUBLIC_URL: 'http://127.0.0.1:5000',
      MEDIA_MAX_FILES: 10,
      JSON_BODY_LIMIT_BYTES: 102400,
      ADMIN_EMAILS: [],
    });
  });

  it('parses lists, booleans and trust proxy forms', () => {
    const config = testConfig({
      CORS_ORIGINS: ' https://a.test, https://b.test ,',
      ADMIN_EMAILS: 'Boss@Example.com, ops@example.com',
      SWAGGER_ENABLED: 'no',
      HEALTH_DETAIL_ENABLED: 'TRUE',
      TRUST_PROXY: '2',
    });
    expect(config.CORS_ORIGINS).toEqual(['https://a.test', 'https://b.test']);
    expect(config.ADMIN_EMAILS).toEqual(['boss@example.com', 'ops@example.com']);
    expect(config.SWAGGER_ENABLED).toBe(false);
    expect(config.HEALTH_DETAIL_ENABLED).toBe(true);
    expect(config.TRUST_PROXY).toBe(2);
    expect(testConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(testConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).TRUST_PROXY).toBe('loopback, 10.0.0.0/8');
  });

  it('names every invalid switch in one error', () => {
    const problems = problemsOf({
      JWT_SECRET: 'x',
      JWT_REFRESH_SECRET: 'y',
      SWAGGER_ENABLED: 'maybe',
      MEDIA_MAX_FILES: '11',
      ADMIN_EMAILS: 'not-an-email',
      SMS_PROVIDER: 'carrier-pigeon',
      OTP_DEV_CODE: '12ab',
    });
    for (const key of ['SWAGGER_ENABLED', 'MEDIA_MAX_FILES', 'ADMIN_EMAILS', 'SMS_PROVIDER', 'OTP_DEV_CODE']) {
      expect(problems.some((p) => p.startsWith(key))).toBe(true);
    }
  });

  it('requires both JWT secrets in every environment', () => {
    const problems = problemsOf({});
    expect(problems).toEqual(expect.arrayContaining(['JWT_SECRET is required', 'JWT_REFRESH_SECRET is required']));
  });

  it('accepts OTP_DEV_CODE and console SMS outside production', () => {
    expect(testConfig({ OTP_DEV_CODE: '123456', SMS_PROVIDER: 'console' }).OTP_DEV_CODE).toBe('123456');
  });
});

describe('production rules', () => {
  it('boots with a compliant production environment', () => {
    expect(productionViolations(VALID_PRODUCTION_ENV)).toEqual([]);
    // A gateway without credentials needs no addresses; one with credentials names its production hosts.
    expect(productionViolations({ ...VALID_PRODUCTION_ENV, MOMO_PARTNER_CODE: 'SHOP', MOMO_ACCESS_KEY: 'k', MOMO_SECRET_KEY: 's' })).toEqual([
      'MOMO_ENDPOINT must be set in production when MOMO is configured (unset, it is the sandbox host)',
    ]);
    expect(parseConfig(VALID_PRODUCTION_ENV).NODE_ENV).toBe('production');
    expect(productionViolations({ ...VALID_PRODUCTION_ENV, BCRYPT_COST: '10' })).toEqual([]);
    expect(productionViolations({ ...VALID_PRODUCTION_ENV, BCRYPT_COST: '' })).toEqual([]);
    expect(testConfig({ BCRYPT_COST: '4' }).BCRYPT_COST).toBe(4);
  });

  const cases: Array<[string, Record<string, string | undefined>, RegExp]> = [
    ['OTP_DEV_CODE set', { OTP_DEV_CODE: '123456' }, /OTP_DEV_CODE must not be set/],
    ['a development bcrypt cost', { BCRYPT_COST: '9' }, /BCRYPT_COST must be at least 10 in production/],
    ['short JWT_SECRET', { JWT_SECRET: 'short' }, /JWT_SECRET must be at least 32/],
    ['short JWT_REFRESH_SECRET', { JWT_REFRESH_SECRET: 'r'.repeat(31) }, /JWT_REFRESH_SECRET must be at least 32/],
    ['missing JWT_SECRET', { JWT_SECRET: undefined }, /JWT_SECRET is required/],
    ['equal secrets', { JWT_REFRESH_SECRET: 'p'.repeat(40) }, /must differ/],
    ['OTP_CHANNEL console', { OTP_CHANNEL: 'console' }, /OTP_CHANNEL must be "email"/],
    ['SMTP_HOST unset', { SMTP_HOST: undefined }, /SMTP_HOST must be set/],
    ['SMS_PROVIDER console', { SMS_PROVIDER: 'console' }, /SMS_PROVIDER must not be "console"/],
    ['SMS_PROVIDER unset (defaults to console)', { SMS_PROVIDER: undefined }, /SMS_PROVIDER must not be "console"/],
    ['PAYMENTS_MOCK true', { PAYMENTS_MOCK: 'true' }, /PAYMENTS_MOCK must be false/],
    ['PAYMENTS_MOCK unset (defaults to true)', { PAYMENTS_MOCK: undefined }, /PAYMENTS_MOCK must be false/],
  ];

  it.each(cases)('refuses to boot with %s', (_name, change, expected) => {
    const problems = problemsOf({ ...VALID_PRODUCTION_ENV, ...change });
    expect(problems.some((p) => expected.test(p))).toBe(true);
  });

  it('lists every violation at once', () => {
    const problems = problemsOf({
      NODE_ENV: 'production',
      OTP_DEV_CODE: '000000',
      JWT_SECRET: 'same-but-short',
      JWT_REFRESH_SECRET: 'same-but-short',
      OTP_CHANNEL: 'console',
      SMS_PROVIDER: 'console',
      PAYMENTS_MOCK: 'yes',
    });
    // …and PAYMENTS_IPN_BASE_URL missing.
    expect(problems).toHaveLength(9);
    let message = '';
    try {
      parseConfig({ NODE_ENV: 'production' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/refuses to boot/);
  });
});

describe('payment gateway configuration', () => {
  it('production needs an https notification address for the gateways', () => {
    expect(problemsOf({ ...VALID_PRODUCTION_ENV, PAYMENTS_IPN_BASE_URL: 'http://api.example.test/api/v1' })).toEqual([
      expect.stringMatching(/PAYMENTS_IPN_BASE_URL must be an https address/),
    ]);
    expect(problemsOf({ ...VALID_PRODUCTION_ENV, PAYMENTS_IPN_BASE_URL: undefined as unknown as string })).toEqual([
      expect.stringMatching(/PAYMENTS_IPN_BASE_URL/),
    ]);
    expect(problemsOf({ ...VALID_PRODUCTION_ENV, VNPAY_PAY_URL: 'http://sandbox.vnpayment.vn/paymentv2/vpcpay.html' })).toEqual([
      expect.stringMatching(/VNPAY_PAY_URL must be https/),
    ]);
    expect(problemsOf(VALID_PRODUCTION_ENV)).toEqual([]);
  });

  it('a gateway is configured with all its credentials or none, in every environment', () => {
    expect(() => testConfig({ VNPAY_TMN_CODE: 'DEMO0001' })).toThrow(/VNPAY is half configured: set VNPAY_HASH_SECRET/);
    expect(() => testConfig({ MOMO_PARTNER_CODE: 'MOMO', MOMO_SECRET_KEY: 'k' })).toThrow(/MOMO is half configured: set MOMO_ACCESS_KEY/);
    const full = testConfig({
      VNPAY_TMN_CODE: 'DEMO0001',
      VNPAY_HASH_SECRET: 's'.repeat(32),
      MOMO_PARTNER_CODE: 'MOMO',
      MOMO_ACCESS_KEY: 'a',
      MOMO_SECRET_KEY: 'k',
    });
    expect(full.VNPAY_PAY_URL).toBe('https://sandbox.vnpayment.vn/paymentv2/vpcpay.html');
    expect(full.PAYMENTS_EXPIRY_SEC).toBe(900);
    expect(full.WALLET_DAILY_TRANSFER_LIMIT_VND).toBe(20_000_000);
  });
});

describe('production detection on a deployed instance', () => {
  const deployed = { K_SERVICE: 'api', FUNCTION_TARGET: 'api' };

  it('applies the production rules on Cloud Functions even when NODE_ENV says development', () => {
    const problems = problemsOf({ ...VALID_PRODUCTION_ENV, ...deployed, NODE_ENV: 'development', OTP_DEV_CODE: '123456' });
    expect(problems).toContain('OTP_DEV_CODE must not be set in production');
    // Without NODE_ENV at all (the deployed .env no longer sets it), the same.
    const { NODE_ENV: _omit, ...withoutNodeEnv } = VALID_PRODUCTION_ENV;
    expect(problemsOf({ ...withoutNodeEnv, K_SERVICE: 'api', PAYMENTS_MOCK: 'true' })).toContain('PAYMENTS_MOCK must be false in production');
  });

  it('parses a compliant deployed instance as production whatever NODE_ENV says', () => {
    const config = parseConfig({ ...VALID_PRODUCTION_ENV, ...deployed, NODE_ENV: 'development' });
    expect(config.NODE_ENV).toBe('production');
    const { storageDriver } = require('../../src/platform/core/storage/storage') as typeof import('../../src/platform/core/storage/storage');
    expect(storageDriver(config)).toBe('gcs');
  });

  it('treats the Functions emulator as local, not deployed', () => {
    const config = testConfig({ ...deployed, FUNCTIONS_EMULATOR: 'true', OTP_DEV_CODE: '123456' });
    expect(config.NODE_ENV).toBe('development');
    expect(runsOnGoogleCloud({ ...deployed, FUNCTIONS_EMULATOR: 'true' })).toBe(false);
    expect(runsOnGoogleCloud({ FUNCTION_TARGET: 'api' })).toBe(true);
    expect(runsOnGoogleCloud({})).toBe(false);
  });

  it('lists TRUST_PROXY=true as a production violation, hop counts and subnets pass', () => {
    for (const word of ['true', 'yes', 'on']) {
      expect(productionViolations({ ...VALID_PRODUCTION_ENV, TRUST_PROXY: word }).join('\n')).toContain('TRUST_PROXY must not be "true"');
    }
    for (const fine of ['1', '2', 'loopback, 10.0.0.0/8', 'false']) {
      expect(productionViolations({ ...VALID_PRODUCTION_ENV, TRUST_PROXY: fine })).toEqual([]);
    }
  });

  it('on Cloud Functions, direct and hosting need TRUST_PROXY as a hop count of at least 1 (else everyone is the front end)', () => {
    const refusal = /TRUST_PROXY must be a hop count of at least 1 on Cloud Functions with CLIENT_IP_SOURCE=(direct|hosting)/;
    for (const source of [undefined, 'direct', 'hosting']) {
      for (const trust of [undefined, '', '0', 'false', 'loopback, 10.0.0.0/8']) {
        const problems = problemsOf({ ...VALID_PRODUCTION_ENV, ...deployed, CLIENT_IP_SOURCE: source, TRUST_PROXY: trust });
        expect(problems.filter((p) => refusal.test(p))).toHaveLength(1);
      }
      for (const trust of ['1', '2']) expect(problemsOf({ ...VALID_PRODUCTION_ENV, ...deployed, CLIENT_IP_SOURCE: source, TRUST_PROXY: trust })).toEqual([]);
    }
    // A plain server (socket) reads no header; off Google Cloud (NODE_ENV=production on another host) it is the operator's call.
    expect(problemsOf({ ...VALID_PRODUCTION_ENV, ...deployed, CLIENT_IP_SOURCE: 'socket', TRUST_PROXY: undefined })).toEqual([]);
    expect(problemsOf({ ...VALID_PRODUCTION_ENV, TRUST_PROXY: undefined })).toEqual([]);
    expect(problemsOf({ ...VALID_PRODUCTION_ENV, ...deployed, TRUST_PROXY: '0' }).join('\n')).toMatch(/every caller shares the front end's address/);
  });

  it('refuses HOSTING_EDGE_RANGES wider than /12 (IPv4) or /24 (IPv6) in production', () => {
    const edges = (ranges: string) => problemsOf({ ...VALID_PRODUCTION_ENV, CLIENT_IP_SOURCE: 'hosting', HOSTING_EDGE_RANGES: ranges });
    expect(edges('151.101.0.0/16,2a04:4e42::/32')).toEqual([]);
    expect(edges('10.0.0.0/12,2a04::/24')).toEqual([]);
    expect(edges('151.101.0.0/16,0.0.0.0/0,10.0.0.0/11,2a04::/23,::/0')).toEqual([
      "HOSTING_EDGE_RANGES entry 0.0.0.0/0 is wider than /12 (IPv4): list the CDN's edge ranges, not a whole block of the internet",
      "HOSTING_EDGE_RANGES entry 10.0.0.0/11 is wider than /12 (IPv4): list the CDN's edge ranges, not a whole block of the internet",
      "HOSTING_EDGE_RANGES entry 2a04::/23 is wider than /24 (IPv6): list the CDN's edge ranges, not a whole block of the internet",
      "HOSTING_EDGE_RANGES entry ::/0 is wider than /24 (IPv6): list the CDN's edge ranges, not a whole block of the internet",
    ]);
    // Locally (tests, the emulators) a wide range is allowed: a loopback proxy stands in for the edge.
    expect(testConfig({ CLIENT_IP_SOURCE: 'hosting', TRUST_PROXY: '1', HOSTING_EDGE_RANGES: '0.0.0.0/0' }).HOSTING_EDGE_RANGES).toEqual(['0.0.0.0/0']);
  });

  it('keeps development values out of the deployed functions/.env', () => {
    const fs = require('node:fs') as typeof import('node:fs');
    const path = require('node:path') as typeof import('node:path');
    const deployedEnv = fs.readFileSync(path.join(__dirname, '..', '..', '.env'), 'utf8');
    const keys = deployedEnv
      .split('\n')
      .filter((l) => /^[A-Z_]+=/.test(l))
      .map((l) => l.split('=')[0]);
    for (const devOnly of ['NODE_ENV', 'PAYMENTS_MOCK', 'OTP_DEV_CODE', 'API_PUBLIC_URL', 'CORS_ORIGINS']) expect(keys).not.toContain(devOnly);
  });
});

describe('maskConfig', () => {
  it('never shows a secret value', () => {
    const config = testConfig({ OTP_DEV_CODE: '654321', SMTP_PASS: 'hunter2hunter2' });
    const masked = maskConfig(config);
    const text = JSON.stringify(masked);
    for (const secret of [config.JWT_SECRET, config.JWT_REFRESH_SECRET, '654321', 'hunter2hunter2']) {
      expect(text).not.toContain(secret);
    }
    expect(masked.JWT_SECRET).toBe('********');
    expect(masked.SMS_API_KEY).toBeNull();
    expect(masked.SMS_PROVIDER).toBe('console');
  });
});

describe('storage selection', () => {
  const { storageDriver } = require('../../src/platform/core/storage/storage') as typeof import('../../src/platform/core/storage/storage');
  const saved = process.env.FIREBASE_STORAGE_EMULATOR_HOST;
  afterEach(() => {
    if (saved === undefined) delete process.env.FIREBASE_STORAGE_EMULATOR_HOST;
    else process.env.FIREBASE_STORAGE_EMULATOR_HOST = saved;
  });

  it('auto: local folder without a Storage emulator, Cloud Storage with one or in production; explicit values win', () => {
    delete process.env.FIREBASE_STORAGE_EMULATOR_HOST;
    expect(storageDriver(testConfig())).toBe('local');
    expect(storageDriver(testConfig({ ...VALID_PRODUCTION_ENV }))).toBe('gcs');
    process.env.FIREBASE_STORAGE_EMULATOR_HOST = '127.0.0.1:9199';
    expect(storageDriver(testConfig())).toBe('gcs');
    expect(storageDriver(testConfig({ STORAGE_DRIVER: 'local' }))).toBe('local');
    expect(() => testConfig({ STORAGE_DRIVER: 's3' })).toThrow(/STORAGE_DRIVER/);
  });
});

describe('RATE_LIMITS', () => {
  it('parses scope=limit/windowSec pairs and names a malformed pair', () => {
    expect(testConfig().RATE_LIMITS).toEqual({});
    expect(testConfig({ RATE_LIMITS: 'auth-register=100/600, auth-login=300/60' }).RATE_LIMITS).toEqual({
      'auth-register': { limit: 100, windowSec: 600 },
      'auth-login': { limit: 300, windowSec: 60 },
    });
    for (const bad of ['auth-register', 'auth-register=0/600', 'auth-register=10/0', 'auth-register=ten/600', 'Auth=1/1', 'x=1/100000']) {
      expect(problemsOf({ JWT_SECRET: 'a', JWT_REFRESH_SECRET: 'b', RATE_LIMITS: bad }).join('\n')).toContain('RATE_LIMITS');
    }
  });

  it('an override replaces the limit and window of its scope only', async () => {
    const { createRateLimiter, memoryRateLimitStore } =
      require('../../src/platform/core/ratelimit/rate-limit') as typeof import('../../src/platform/core/ratelimit/rate-limit');
    const limiter = createRateLimiter(memoryRateLimitStore(), () => 1_000_000, { 'auth-register': { limit: 2, windowSec: 60 } });
    const register = { scope: 'auth-register', limit: 10, windowSec: 600 };
    const login = { scope: 'auth-login', limit: 1, windowSec: 300 };
    await limiter.hit(register, 'ip');
    await limiter.hit(register, 'ip');
    await expect(limiter.hit(register, 'ip')).rejects.toMatchObject({ statusCode: 429 });
    await limiter.hit(login, 'ip');
    await expect(limiter.hit(login, 'ip')).rejects.toMatchObject({ statusCode: 429 });
  });
});
