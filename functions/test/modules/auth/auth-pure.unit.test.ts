import jwt from 'jsonwebtoken';
import { hmacOtp, generateOtpCode, otpKey, otpMatches } from '../../../src/modules/auth/otp-code';
import { createPasswordHasher, PasswordSchema } from '../../../src/modules/auth/passwords';
import { createTokenSigner } from '../../../src/modules/auth/tokens';
import { hatsFor, unlockedHats } from '../../../src/modules/users/users.model';
import { createRateLimiter, memoryRateLimitStore, rateLimitHeaders } from '../../../src/platform/core/ratelimit/rate-limit';
import { TEST_JWT_REFRESH_SECRET, TEST_JWT_SECRET } from '../../helpers/config';

describe('OTP codes', () => {
  it('are 6 digits, spread over the whole range', () => {
    const codes = Array.from({ length: 2000 }, generateOtpCode);
    expect(codes.every((c) => /^\d{6}$/.test(c))).toBe(true);
    expect(new Set(codes).size).toBeGreaterThan(1980);
    expect(codes.some((c) => c.startsWith('0'))).toBe(true);
  });

  it('are stored as an HMAC bound to the challenge, never as the code', () => {
    const key = otpKey(TEST_JWT_SECRET);
    const stored = hmacOtp(key, 'challenge-1', '123456');
    expect(stored).not.toContain('123456');
    expect(otpMatches(key, 'challenge-1', '123456', stored)).toBe(true);
    expect(otpMatches(key, 'challenge-2', '123456', stored)).toBe(false);
    expect(otpMatches(key, 'challenge-1', '123457', stored)).toBe(false);
    expect(otpMatches(otpKey('another-secret-another-secret-123'), 'challenge-1', '123456', stored)).toBe(false);
  });
});

describe('passwords', () => {
  it('8 characters to 72 UTF-8 bytes, counted in bytes', () => {
    expect(PasswordSchema.safeParse('1234567').success).toBe(false);
    expect(PasswordSchema.safeParse('12345678').success).toBe(true);
    expect(PasswordSchema.safeParse('a'.repeat(72)).success).toBe(true);
    expect(PasswordSchema.safeParse('a'.repeat(73)).success).toBe(false);
    expect(PasswordSchema.safeParse('é'.repeat(36)).success).toBe(true); // 72 bytes
    expect(PasswordSchema.safeParse('é'.repeat(37)).success).toBe(false); // 74 bytes
  });

  it('bcrypt hashes at the configured cost and compares against a dummy hash for unknown accounts', async () => {
    const hasher = createPasswordHasher(10);
    const hash = await hasher.hash('correct horse');
    expect(hash).toMatch(/^\$2[aby]\$10\$/);
    expect(await hasher.verify('correct horse', hash)).toBe(true);
    expect(await hasher.verify('correct horse ', hash)).toBe(false);
    expect(await hasher.verify('anything', null)).toBe(false);
  });
});

describe('tokens', () => {
  const signer = createTokenSigner({ accessSecret: TEST_JWT_SECRET, refreshSecret: TEST_JWT_REFRESH_SECRET, accessTtlSec: 900, refreshTtlSec: 3600 });

  it('carry jti, typ, sub, sid and roles; HS256 with separate secrets', () => {
    const pair = signer.newPair('u1', 's1', ['USER'], Date.now());
    const access = jwt.verify(pair.accessToken, TEST_JWT_SECRET, { algorithms: ['HS256'] }) as Record<string, unknown>;
    expect(access).toMatchObject({ sub: 'u1', sid: 's1', typ: 'access', roles: ['USER'], jti: pair.access.jti });
    expect(access.exp as number).toBe((access.iat as number) + 900);
    const refresh = jwt.verify(pair.refreshToken, TEST_JWT_REFRESH_SECRET, { algorithms: ['HS256'] }) as Record<string, unknown>;
    expect(refresh).toMatchObject({ sub: 'u1', sid: 's1', typ: 'refresh', jti: pair.refresh.jti });
    expect(pair.access.jti).not.toBe(pair.refresh.jti);
  });

  it('re-signing the stored claims reproduces the same pair (client retries within the grace window)', () => {
    const pair = signer.newPair('u1', 's1', ['USER', 'DRIVER'], Date.now());
    const again = signer.resign('u1', 's1', pair.access, pair.refresh);
    expect(again.accessToken).toBe(pair.accessToken);
    expect(again.refreshToken).toBe(pair.refreshToken);
  });

  it('verifyRefresh refuses access tokens, other secrets and other algorithms', () => {
    const pair = signer.newPair('u1', 's1', ['USER'], Date.now());
    expect(signer.verifyRefresh(pair.refreshToken)).toEqual({ userId: 'u1', sessionId: 's1', jti: pair.refresh.jti });
    expect(() => signer.verifyRefresh(pair.accessToken)).toThrow('Invalid refresh token');
    const hs512 = jwt.sign({ sub: 'u1', sid: 's1', jti: 'j', typ: 'refresh' }, TEST_JWT_REFRESH_SECRET, { algorithm: 'HS512' });
    expect(() => signer.verifyRefresh(hs512)).toThrow('Invalid refresh token');
  });

  it('two-factor tokens are their own type and expire', () => {
    const now = Date.now();
    const token = signer.signTwoFa('u1', 'c1', now, 600);
    expect(signer.verifyTwoFa(token)).toEqual({ userId: 'u1', challengeId: 'c1' });
    expect(() => signer.verifyTwoFa(signer.signTwoFa('u1', 'c1', now - 700_000, 600))).toThrow();
    const pair = signer.newPair('u1', 's1', ['USER'], now);
    expect(() => signer.verifyTwoFa(pair.accessToken)).toThrow();
  });
});

describe('hats from roles', () => {
  it.each([
    [['USER'], ['CON']],
    [['USER', 'DRIVER'], ['DRV']],
    [
      ['USER', 'PARTNER_OWNER'],
      ['CON', 'PAR'],
    ],
    [
      ['USER', 'PARTNER_STAFF'],
      ['CON', 'PAR'],
    ],
    [
      ['USER', 'LANDLORD'],
      ['CON', 'PAR'],
    ],
    [
      ['USER', 'DOCTOR'],
      ['CON', 'PAR'],
    ],
    [
      ['USER', 'ADMIN'],
      ['CON', 'ADM'],
    ],
  ] as const)('%j unlocks %j', (roles, hats) => {
    expect(unlockedHats(roles)).toEqual(hats);
  });

  it('the driver hat is exclusive of the consumer hat', () => {
    expect(hatsFor(['USER', 'DRIVER']).CON).toBe(false);
  });
});

describe('rate limiter', () => {
  it('allows `limit` hits per window per subject, then 429 with Retry-After until the window ends', async () => {
    let now = 1_000_000;
    const limiter = createRateLimiter(memoryRateLimitStore(), () => now);
    const rule = { scope: 's', limit: 3, windowSec: 60 };
    // now is 40 s into its 60 s window: 20 s to go.
    const states = [];
    for (let i = 0; i < 3; i += 1) states.push(await limiter.hit(rule, '1.2.3.4'));
    expect(states.map((s) => s.remaining)).toEqual([2, 1, 0]);
    expect(states[0]).toEqual({ scope: 's', limit: 3, windowSec: 60, remaining: 2, resetSec: 20, giveBack: expect.any(Function) });
    // A hit given back (a request refused by the session check) leaves room for one more.
    await states[2].giveBack();
    expect((await limiter.hit(rule, '1.2.3.4')).remaining).toBe(0);
    await expect(limiter.hit(rule, '1.2.3.4')).rejects.toMatchObject({
      statusCode: 429,
      headers: { 'Retry-After': '20', 'RateLimit-Policy': '"s";q=3;w=60', RateLimit: '"s";r=0;t=20' },
    });
    await expect(limiter.hit(rule, '5.6.7.8')).resolves.toMatchObject({ remaining: 2 });
    now += 20_000;
    await expect(limiter.hit(rule, '1.2.3.4')).resolves.toMatchObject({ remaining: 2, resetSec: 60 });
  });

  it("an aggregate bucket (a Hosting edge) caps many subjects together at factor × the limit; its 429 names the subject's policy", async () => {
    let now = 1_000_000;
    const limiter = createRateLimiter(memoryRateLimitStore(), () => now, { s: { limit: 2, windowSec: 60 } });
    const rule = { scope: 's', limit: 3, windowSec: 60 };
    const edge = { subject: 'edge:151.101.1.195', factor: 3 };
    // Six made-up client addresses behind one edge: each fresh, together at the edge's 2 × 3.
    for (let i = 0; i < 6; i += 1) await expect(limiter.hit(rule, `10.0.0.${i}`, edge)).resolves.toMatchObject({ remaining: 1, limit: 2 });
    await expect(limiter.hit(rule, '10.0.0.99', edge)).rejects.toMatchObject({
      statusCode: 429,
      headers: { 'Retry-After': '20', 'RateLimit-Policy': '"s";q=2;w=60', RateLimit: '"s";r=0;t=20' },
    });
    // Another edge, and a client without one, are counted on their own.
    await expect(limiter.hit(rule, '10.0.0.50', { subject: 'edge:151.101.1.196', factor: 3 })).resolves.toMatchObject({ remaining: 1 });
    await expect(limiter.hit(rule, '10.0.0.98')).resolves.toMatchObject({ remaining: 1 });
    // Factor 0: no aggregate.
    await expect(limiter.hit(rule, '10.0.0.97', { ...edge, factor: 0 })).resolves.toMatchObject({ remaining: 1 });
    // The next window starts both afresh.
    now += 20_000;
    await expect(limiter.hit(rule, '10.0.0.99', edge)).resolves.toMatchObject({ remaining: 1, resetSec: 60 });
  });

  it('announces the limit RATE_LIMITS set, not the declared one', async () => {
    const limiter = createRateLimiter(memoryRateLimitStore(), () => 0, { s: { limit: 100, windowSec: 600 } });
    const state = await limiter.hit({ scope: 's', limit: 3, windowSec: 60 }, 'x');
    expect(rateLimitHeaders(state)).toEqual({ 'RateLimit-Policy': '"s";q=100;w=600', RateLimit: '"s";r=99;t=600' });
  });
});
