import { buildApp, type CreateAppOptions } from '../../src/app';
import { createJwtAccessTokenVerifier } from '../../src/platform/core/auth/access-token';
import type { AppConfig } from '../../src/platform/core/config';
import { createRateLimiter, memoryRateLimitStore } from '../../src/platform/core/ratelimit/rate-limit';
import { memoryIdempotencyStore } from '../../src/platform/kits/idempotency/idempotency';
import { parseConfig } from '../../src/platform/core/config';

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
  SMTP_HOST: 'smtp.example.test',
  PAYMENTS_IPN_BASE_URL: 'https://api.example.test/api/v1',
  // As functions/.env sets it: the entry Cloud Functions' front end appends.
  TRUST_PROXY: '1',
};

// The app for in-process unit tests: JWT-only verification and an in-memory rate limiter (no Firestore).
export function unitApp(options: Omit<CreateAppOptions, 'verifyAccessToken' | 'rateLimiter'> & { config: AppConfig }) {
  return buildApp({
    ...options,
    verifyAccessToken: createJwtAccessTokenVerifier(options.config.JWT_SECRET),
    rateLimiter: createRateLimiter(memoryRateLimitStore()),
    idempotency: memoryIdempotencyStore(),
  });
}
