import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { MODULES } from '../../src/modules';
import { ConfigError, maskConfig, parseConfig, productionViolations, type AppConfig } from '../../src/platform/core/config';
import { configSwitches, installedSwitches, installSwitches, secretKeys, type ModuleSwitches } from '../../src/platform/core/config/module-switches';
import { defineSwitches, positiveInt, optionalText } from '../../src/platform/core/config/switches';
import { productionEnvProblems } from '../../src/platform/core/deploy/checks';
import { defineModule, defineModules } from '../../src/platform/core/module/module';
import { testConfig, TEST_JWT_REFRESH_SECRET, TEST_JWT_SECRET, VALID_PRODUCTION_ENV } from '../helpers/config';

// A module's switches live in its folder (`<m>.config.ts`, named by its definition's `config`) and are validated
// with the platform's, at once, at every cold start: defaults, refusals naming the key, cross-switch and production
// rules, secrets, one owner per key.
const secrets = { JWT_SECRET: TEST_JWT_SECRET, JWT_REFRESH_SECRET: TEST_JWT_REFRESH_SECRET };

function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    parseConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

// A vertical that is not in the module list: its fragment, installed beside the backend's for one test.
const ordersSwitches = defineSwitches(
  {
    ORDER_ACCEPT_WITHIN_SEC: { schema: positiveInt(900, 3_600, 60), effect: 'how long a store has to accept an order' },
    ORDER_WEBHOOK_TOKEN: { schema: optionalText, effect: "the store's webhook token", secret: true },
  },
  {
    check: (values) =>
      values.ORDER_ACCEPT_WITHIN_SEC === 3_600 && !values.ORDER_WEBHOOK_TOKEN ? ['ORDER_WEBHOOK_TOKEN is required for a one-hour window'] : [],
    production: (env) => ((env.ORDER_WEBHOOK_TOKEN ?? '').startsWith('dev-') ? ['ORDER_WEBHOOK_TOKEN must not be a development token in production'] : []),
  },
);

function withOrders<T>(run: () => T): T {
  const installed = installedSwitches();
  installSwitches([...installed, { module: 'orders', switches: ordersSwitches }]);
  try {
    return run();
  } finally {
    installSwitches(installed);
  }
}

describe("a module's switches", () => {
  it('are read with their defaults and typed on AppConfig', () => {
    const config: Readonly<AppConfig> = testConfig();
    const radius: number = config.RIDE_SEARCH_RADIUS_M;
    const provider: 'estimator' | 'osrm' = config.ROUTING_PROVIDER;
    expect([radius, provider, config.DRIVER_MAX_SPEED_KMH, config.CHAT_GROUP_ADDS_DEFAULT, config.PAYMENTS_MOCK]).toEqual([
      3_000,
      'estimator',
      200,
      'INVITATION',
      true,
    ]);
    // @ts-expect-error: no module declares it
    expect(config.ORDER_ACCEPT_WITHIN_SEC).toBeUndefined();
  });

  it("refuse the boot with a bad value, named by its key, reported with the platform's problems at once", () => {
    const problems = problemsOf({ ...secrets, RIDE_SEARCH_RADIUS_M: '5', KYC_MAX_FILE_BYTES: 'big', SWAGGER_ENABLED: 'maybe' });
    expect(problems).toEqual([
      expect.stringMatching(/^SWAGGER_ENABLED must be one of/),
      'KYC_MAX_FILE_BYTES must be an integer from 1 to 52428800',
      'RIDE_SEARCH_RADIUS_M must be an integer from 200 to 20000',
    ]);
    expect(() => testConfig({ ROUTING_PROVIDER: 'osrm' })).toThrow('OSRM_URL is required when ROUTING_PROVIDER=osrm');
  });

  it('of a new vertical are validated with the rest once installed: default, refusal, its own rules, its secret', () => {
    withOrders(() => {
      const config: Record<string, unknown> = { ...parseConfig(secrets) };
      expect([config.ORDER_ACCEPT_WITHIN_SEC, config.ORDER_WEBHOOK_TOKEN, config.RIDE_SEARCH_RADIUS_M]).toEqual([900, undefined, 3_000]);
      expect(problemsOf({ ...secrets, ORDER_ACCEPT_WITHIN_SEC: '10' })).toEqual(['ORDER_ACCEPT_WITHIN_SEC must be an integer from 60 to 3600']);
      expect(problemsOf({ ...secrets, ORDER_ACCEPT_WITHIN_SEC: '3600' })).toEqual(['ORDER_WEBHOOK_TOKEN is required for a one-hour window']);
      expect(productionViolations({ ...VALID_PRODUCTION_ENV, ORDER_WEBHOOK_TOKEN: 'dev-123' })).toEqual([
        'ORDER_WEBHOOK_TOKEN must not be a development token in production',
      ]);
      expect(productionViolations({ ...VALID_PRODUCTION_ENV, ORDER_WEBHOOK_TOKEN: 'live-123' })).toEqual([]);
      expect(maskConfig(parseConfig({ ...secrets, ORDER_WEBHOOK_TOKEN: 'live-123' })).ORDER_WEBHOOK_TOKEN).toBe('********');
      expect(secretKeys()).toContain('ORDER_WEBHOOK_TOKEN');
      expect(configSwitches().at(-1)).toMatchObject({ key: 'ORDER_WEBHOOK_TOKEN', owner: 'orders', secret: true, effect: "the store's webhook token" });
    });
    expect(problemsOf({ ...secrets, ORDER_ACCEPT_WITHIN_SEC: '10' })).toEqual([]); // uninstalled: not a switch of this backend
  });

  it('keep their secrets secret: masked in diagnostics, bindable from Secret Manager', () => {
    const config = testConfig({ VNPAY_TMN_CODE: 'SHOP', VNPAY_HASH_SECRET: 'vnpay-hash-secret', OTP_DEV_CODE: '123456' });
    const masked = maskConfig(config);
    expect([masked.VNPAY_HASH_SECRET, masked.MOMO_SECRET_KEY, masked.OTP_DEV_CODE, masked.VNPAY_TMN_CODE]).toEqual(['********', null, '********', 'SHOP']);
    expect(JSON.stringify(masked)).not.toContain('vnpay-hash-secret');
    expect(Object.keys(masked)).toEqual(configSwitches().map((s) => s.key));
    expect(secretKeys()).toEqual(expect.arrayContaining(['JWT_SECRET', 'SMTP_PASS', 'OTP_DEV_CODE', 'VNPAY_HASH_SECRET', 'MOMO_SECRET_KEY']));
    const env: Record<string, string> = {
      ...VALID_PRODUCTION_ENV,
      VNPAY_TMN_CODE: 'SHOP',
      VNPAY_PAY_URL: 'https://pay.vnpay.vn/x',
      VNPAY_API_URL: 'https://api.vnpay.vn/x',
    };
    const { JWT_SECRET: _a, JWT_REFRESH_SECRET: _b, ...files } = env;
    expect(productionEnvProblems(files, ['JWT_SECRET', 'JWT_REFRESH_SECRET', 'VNPAY_HASH_SECRET'])).toEqual([]);
  });

  it('have one owner each: a key declared twice is refused, naming both owners', () => {
    const redeclare = (key: string): ModuleSwitches => ({
      module: 'shop',
      switches: defineSwitches({ [key]: { schema: positiveInt(1, 2), effect: 'again' } }),
    });
    const installed = installedSwitches();
    expect(() => installSwitches([...installed, redeclare('RIDE_SEARCH_RADIUS_M')])).toThrow(
      'config switch RIDE_SEARCH_RADIUS_M is declared by module rides and by module shop',
    );
    expect(() => installSwitches([...installed, redeclare('NODE_ENV')])).toThrow('config switch NODE_ENV is declared by the platform and by module shop');
    expect(installedSwitches()).toBe(installed); // a refused set installs nothing

    const shop = (key: string) => defineModule({ name: 'shop', uses: [], config: redeclare(key).switches });
    expect(() => defineModules([...MODULES, shop('RIDE_SEARCH_RADIUS_M')])).toThrow('switches: RIDE_SEARCH_RADIUS_M is claimed by modules rides and shop');
    expect(() => defineModules([...MODULES, shop('JWT_SECRET')])).toThrow('switches: JWT_SECRET of module shop is a platform switch');
    expect(defineModules([...MODULES, shop('SHOP_ACCEPT_WITHIN_SEC')]).ownerOf('switches', 'SHOP_ACCEPT_WITHIN_SEC')).toBe('shop');
  });

  it('are declared with an upper-case key and an effect', () => {
    expect(() => defineSwitches({ orderWindow: { schema: positiveInt(1, 2), effect: 'x' } })).toThrow(
      'config switch orderWindow: upper case words joined by _',
    );
    expect(() => defineSwitches({ ORDER_WINDOW: { schema: positiveInt(1, 2), effect: ' ' } })).toThrow('config switch ORDER_WINDOW: say what it does (effect)');
  });

  it('must be installed before the configuration is read: a process that forgot refuses instead of missing keys', () => {
    const slot = globalThis as Record<symbol, unknown>;
    const key = Symbol.for('superapp.moduleSwitches');
    const installed = slot[key];
    delete slot[key];
    try {
      expect(() => parseConfig(secrets)).toThrow("the modules' config switches are not installed");
    } finally {
      slot[key] = installed;
    }
  });
});

describe('the functions entry', () => {
  // dist/index.js in a fresh process, as an `api` instance loads it (the bundle `npm test` builds).
  const functionsDir = path.join(__dirname, '..', '..');
  const probe = `require('./dist/index.js');
const g = globalThis;
process.stdout.write(JSON.stringify({ switches: g[Symbol.for('superapp.moduleSwitches')].map((s) => s.module), definitions: Boolean(g[Symbol.for('superapp.moduleRegistry')]) }));`;
  const load = (env: Record<string, string>) =>
    spawnSync(process.execPath, ['-e', probe], {
      cwd: functionsDir,
      env: { PATH: process.env.PATH ?? '', FUNCTION_TARGET: 'api', FUNCTIONS_EMULATOR: 'true', ...secrets, ...env },
      encoding: 'utf8',
    });

  it("validates every module's switches at cold start without loading the module definitions", () => {
    const res = load({});
    expect(res.stderr).toBe('');
    expect(JSON.parse(res.stdout)).toEqual({ switches: MODULES.filter((m) => m.config).map((m) => m.name), definitions: false });
    const refused = load({ RIDE_SEARCH_RADIUS_M: '5' });
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('ConfigError');
    expect(refused.stderr).toContain('RIDE_SEARCH_RADIUS_M must be an integer from 200 to 20000');
  });
});
