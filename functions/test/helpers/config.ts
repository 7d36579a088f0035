import { parseConfig } from '../../src/platform/config';

export const TEST_JWT_SECRET = 'test-access-secret-0123456789abcdef0123456789';
export const TEST_JWT_REFRESH_SECRET = 'test-refresh-secret-0123456789abcdef012345678';

export function testConfig(overrides: Record<string, string | undefined> = {}) {
  return parseConfig({ JWT_SECRET: TEST_JWT_SECRET, JWT_REFRESH_SECRET: TEST_JWT_REFRESH_SECRET, ...overrides });
}

// A production environment that satisfies every rule; tests break one rule at a time.
export const VALID_PRODUCTION_ENV: Record<string, string> = {
  NODE_ENV: 'production',
  JWT_SECRET: 'p'.repeat(40),
  JWT_REFRESH_SECRET: 'q'.repeat(40),
  OTP_CHANNEL: 'email',
  SMS_PROVIDER: 'http',
  SMS_HTTP_URL: 'https://sms.example.test/send',
  PAYMENTS_MOCK: 'false',
};
