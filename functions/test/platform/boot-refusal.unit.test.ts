import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { VALID_PRODUCTION_ENV } from '../helpers/config';

// Loads the deployed functions entry (dist/index.js, the bundle `npm test` builds) in a fresh process, as Cloud Functions does.
const functionsDir = path.join(__dirname, '..', '..');

function loadEntry(env: Record<string, string>) {
  const res = spawnSync(process.execPath, ['-e', "require('./dist/index.js'); process.stdout.write('loaded')"], {
    cwd: functionsDir,
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
  });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

describe('functions entry boot', () => {
  it('refuses to boot in production with OTP_DEV_CODE set', () => {
    const res = loadEntry({ ...VALID_PRODUCTION_ENV, OTP_DEV_CODE: '123456' });
    expect(res.status).not.toBe(0);
    expect(res.stdout).not.toContain('loaded');
    expect(res.stderr).toContain('ConfigError');
    expect(res.stderr).toContain('OTP_DEV_CODE must not be set in production');
  });

  it('refuses to boot on Cloud Functions (K_SERVICE set) with OTP_DEV_CODE even when NODE_ENV says development', () => {
    const res = loadEntry({ ...VALID_PRODUCTION_ENV, NODE_ENV: 'development', K_SERVICE: 'api', FUNCTION_TARGET: 'api', OTP_DEV_CODE: '123456' });
    expect(res.status).not.toBe(0);
    expect(res.stdout).not.toContain('loaded');
    expect(res.stderr).toContain('OTP_DEV_CODE must not be set in production');
  });

  it('reports every production violation in one error', () => {
    const res = loadEntry({ NODE_ENV: 'production', OTP_DEV_CODE: '123456', JWT_SECRET: 'same', JWT_REFRESH_SECRET: 'same' });
    expect(res.status).not.toBe(0);
    for (const text of ['OTP_DEV_CODE', 'JWT_SECRET must be at least 32', 'must differ', 'SMS_PROVIDER', 'PAYMENTS_MOCK']) {
      expect(res.stderr).toContain(text);
    }
  });

  it('refuses to boot in production with a configured VNPay or MoMo whose addresses are unset (no sandbox fallback)', () => {
    const vnpay = { VNPAY_TMN_CODE: 'SHOP', VNPAY_HASH_SECRET: 'h'.repeat(32) };
    const momo = { MOMO_PARTNER_CODE: 'SHOP', MOMO_ACCESS_KEY: 'a'.repeat(16), MOMO_SECRET_KEY: 's'.repeat(32) };
    const refused = loadEntry({ ...VALID_PRODUCTION_ENV, ...vnpay, ...momo });
    expect(refused.status).not.toBe(0);
    expect(refused.stdout).not.toContain('loaded');
    for (const key of ['VNPAY_PAY_URL', 'VNPAY_API_URL', 'MOMO_ENDPOINT']) expect(refused.stderr).toContain(`${key} must be set in production`);
    const named = loadEntry({
      ...VALID_PRODUCTION_ENV,
      ...vnpay,
      ...momo,
      VNPAY_PAY_URL: 'https://pay.vnpay.vn/vpcpay.html',
      VNPAY_API_URL: 'https://merchant.vnpay.vn/merchant_webapi/api/transaction',
      MOMO_ENDPOINT: 'https://payment.momo.vn',
    });
    expect(named.stderr).toBe('');
    expect(named.stdout).toBe('loaded');
  });

  it('boots with a compliant production environment', () => {
    const res = loadEntry(VALID_PRODUCTION_ENV);
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
    expect(res.stdout).toBe('loaded');
  });

  it('exports the api, the message queue and every task and trigger function of the module list (what discovery deploys)', () => {
    const probe = "process.stdout.write(JSON.stringify(Object.keys(require('./dist/index.js')).sort()))";
    const res = spawnSync(process.execPath, ['-e', probe], {
      cwd: functionsDir,
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', FUNCTIONS_CONTROL_API: 'true' },
      encoding: 'utf8',
    });
    expect(res.stderr).toBe('');
    const { MODULES } = require('../../src/modules') as typeof import('../../src/modules');
    const { groupTriggers } = require('../../src/platform/core/module/trigger-groups') as typeof import('../../src/platform/core/module/trigger-groups');
    // Triggers on one document path are one function (usersChanged, paymentsChanged).
    const expected = ['api', 'deliverMessage', ...MODULES.flatMap((m) => Object.keys(m.tasks ?? {})), ...groupTriggers(MODULES).map((g) => g.name)].sort();
    expect(expected).toEqual(expect.arrayContaining(['callRingTimeout', 'rideExpiry', 'reviewWritten', 'paymentsChanged', 'usersChanged']));
    expect(expected).not.toContain('orderPaymentChanged');
    expect(JSON.parse(res.stdout)).toEqual(expected);
  });

  it('skips validation during deploy-time discovery, where secrets are absent', () => {
    const res = loadEntry({ NODE_ENV: 'production', FUNCTIONS_CONTROL_API: 'true' });
    expect(res.status).toBe(0);
    expect(res.stdout).toBe('loaded');
  });
});
