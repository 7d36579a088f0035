// Environment the API gets on the local stack, on top of functions/.env (which wins over these, as does
// functions/.env.local): mail and SMS go to the local sinks (scripts/sinks.mjs).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { log, repoRoot } from './util.mjs';

export const DEV_SINKS = { smtp: 2525, http: 2580 };
export const TEST_SINKS = { smtp: 2625, http: 2680 };
export const TEST_GOOGLE_CLIENT_ID = 'superapp-test.apps.googleusercontent.com';
export const DEV_RATE_LIMITS = 'auth-register=500/600,auth-login=1000/300,auth-otp-send=500/600,auth-otp-verify=1000/300,auth-refresh=5000/300,auth-forgot=500/900,auth-reset=500/900,auth-google=1000/300';

// Sandbox-style gateway credentials of the local stack: the sinks play VNPay and MoMo with them (a payment page
// that pays at once and calls the IPN, the create and refund APIs), so top-ups work end to end offline.
export const LOCAL_GATEWAYS = {
  VNPAY_TMN_CODE: 'SUPERAPP',
  VNPAY_HASH_SECRET: 'LOCALVNPAYHASHSECRET0123456789AB',
  MOMO_PARTNER_CODE: 'MOMOSUPERAPP',
  MOMO_ACCESS_KEY: 'localMomoAccessKey',
  MOMO_SECRET_KEY: 'localMomoSecretKey0123456789abcd',
};

export function gatewayEnv(sinksUrl) {
  return {
    ...LOCAL_GATEWAYS,
    VNPAY_PAY_URL: `${sinksUrl}/vnpay/paymentv2/vpcpay.html`,
    VNPAY_API_URL: `${sinksUrl}/vnpay/merchant_webapi/api/transaction`,
    MOMO_ENDPOINT: `${sinksUrl}/momo`,
  };
}

export function stackEnv(profile) {
  const sinks = profile === 'test' ? TEST_SINKS : DEV_SINKS;
  const sinksUrl = `http://127.0.0.1:${sinks.http}`;
  return {
    ...gatewayEnv(sinksUrl),
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(sinks.smtp),
    SMTP_FROM: 'Super-app <no-reply@superapp.local>',
    SMS_PROVIDER: 'http',
    SMS_HTTP_URL: `${sinksUrl}/sms`,
    SMS_API_KEY: 'local-sms-gateway-key',
    ADMIN_EMAILS: profile === 'test' ? 'admin@superapp.test' : 'admin@superapp.local',
    // Tests sign Google ID tokens with their own keys and publish the public half on the sinks.
    ...(profile === 'test' ? { GOOGLE_CLIENT_IDS: TEST_GOOGLE_CLIENT_ID, GOOGLE_CERTS_URL: `${sinksUrl}/google/certs` } : {}),
    // Short rings so the missed-call path is tested in seconds, yet well above the few seconds the Firestore
    // emulator may take to settle racing answer/decline/cancel transactions (a 3 s ring could beat them).
    ...(profile === 'test' ? { CALL_RING_TIMEOUT_SEC: '10' } : {}),
    // npm test registers and signs in some two thousand accounts: at cost 10 their hashes were a tenth of the run's
    // CPU. The timing tests that need a real hash build their API at cost 10 (test/helpers/api.ts: apiWith).
    ...(profile === 'test' ? { BCRYPT_COST: '4' } : {}),
    // A large account (posts merged into feeds at read time) in tests is one with more than 20 followers, not 5,000.
    ...(profile === 'test' ? { SOCIAL_FANOUT_MAX: '20' } : {}),
    // The emulator serialises contended transactions far more slowly than Firestore on this 2-core machine (50
    // debits racing on one wallet take ~25 s): the local stacks answer 503 DEADLINE_EXCEEDED only past the
    // largest deadline the configuration allows, not the production default of 25 s.
    REQUEST_DEADLINE_MS: '50000',
    // The local stack registers and signs in far more often than a person behind one IP: generous per-IP
    // limits (npm test keeps the production ones, which its rate-limit tests check).
    ...(profile === 'dev' ? { RATE_LIMITS: DEV_RATE_LIMITS } : {}),
    SINKS_URL: sinksUrl,
  };
}

// Starts scripts/sinks.mjs and resolves once it answers.
export async function startSinks(profile, { print }) {
  const sinks = profile === 'test' ? TEST_SINKS : DEV_SINKS;
  const child = spawn(
    process.execPath,
    [path.join(repoRoot, 'scripts', 'sinks.mjs'), `--smtp=${sinks.smtp}`, `--http=${sinks.http}`, ...(print ? ['--print'] : [])],
    // The fake gateways sign and verify with the stack's gateway credentials.
    { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, ...LOCAL_GATEWAYS } },
  );
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      if ((await fetch(`http://127.0.0.1:${sinks.http}/health`)).ok) return child;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill();
  log(`WARNING: the local mail/SMS sinks did not start (ports ${sinks.smtp}, ${sinks.http} busy?); OTP mails will not be delivered`);
  return undefined;
}
