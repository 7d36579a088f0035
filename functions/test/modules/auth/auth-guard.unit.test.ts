import { healthModule } from '../../../src/modules/health/health.module';
import { testConfig, TEST_JWT_REFRESH_SECRET, TEST_JWT_SECRET, unitApp } from '../../helpers/config';
import { listen } from '../../helpers/http';
import { signAccessToken, unsignedToken } from '../../helpers/tokens';

let server: Awaited<ReturnType<typeof listen>>;

beforeAll(async () => {
  server = await listen(unitApp({ config: testConfig(), modules: [healthModule] }).app);
});
afterAll(() => server.close());

async function adminEnv(token?: string) {
  const res = await fetch(`${server.url}/api/v1/health/admin/env`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return { status: res.status, body: (await res.json()) as { error: string; config: Record<string, unknown> } };
}

describe('bearer guard on an ADMIN route', () => {
  it('401 without a token', async () => {
    const res = await adminEnv();
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('Unauthorized');
  });

  it.each([
    ['alg none', () => unsignedToken({ sub: 'u1', typ: 'access', roles: ['ADMIN'], jti: 'j', sid: 's' })],
    ['wrong secret', () => signAccessToken('another-secret-another-secret-1234', { roles: ['ADMIN'] })],
    ['refresh token used as access', () => signAccessToken(TEST_JWT_SECRET, { roles: ['ADMIN'], typ: 'refresh' })],
    ['signed with the refresh secret', () => signAccessToken(TEST_JWT_REFRESH_SECRET, { roles: ['ADMIN'] })],
    ['wrong algorithm (HS512)', () => signAccessToken(TEST_JWT_SECRET, { roles: ['ADMIN'], algorithm: 'HS512' })],
    ['expired', () => signAccessToken(TEST_JWT_SECRET, { roles: ['ADMIN'], expiresInSec: -10 })],
    ['unknown role', () => signAccessToken(TEST_JWT_SECRET, { roles: ['ADMIN', 'COURIER'] })],
    [
      'tampered payload',
      () => {
        const [h, , s] = signAccessToken(TEST_JWT_SECRET, { roles: ['USER'] }).split('.');
        const forged = Buffer.from(JSON.stringify({ sub: 'x', typ: 'access', roles: ['ADMIN'], jti: 'j', sid: 's' })).toString('base64url');
        return `${h}.${forged}.${s}`;
      },
    ],
    ['garbage', () => 'not-a-jwt'],
  ])('401 for %s', async (_name, make) => {
    const res = await adminEnv(make());
    expect(res.status).toBe(401);
  });

  it('403 for an authenticated user without ADMIN', async () => {
    const res = await adminEnv(signAccessToken(TEST_JWT_SECRET, { roles: ['USER', 'PARTNER_OWNER'] }));
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('Forbidden');
  });

  it('200 for ADMIN, with secrets masked', async () => {
    const res = await adminEnv(signAccessToken(TEST_JWT_SECRET, { roles: ['USER', 'ADMIN'] }));
    expect(res.status).toBe(200);
    expect(res.body.config.JWT_SECRET).toBe('********');
    expect(JSON.stringify(res.body)).not.toContain(TEST_JWT_SECRET);
  });
});

describe('health availability by environment', () => {
  async function statusOf(config: ReturnType<typeof testConfig>, path: string, token?: string) {
    const s = await listen(unitApp({ config, modules: [healthModule] }).app);
    try {
      const res = await fetch(`${s.url}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
      return res.status;
    } finally {
      await s.close();
    }
  }
  const production = (extra: Record<string, string> = {}) =>
    testConfig({
      NODE_ENV: 'production',
      JWT_SECRET: TEST_JWT_SECRET,
      SMS_PROVIDER: 'http',
      SMS_HTTP_URL: 'https://sms.example.test/send',
      PAYMENTS_MOCK: 'false',
      SMTP_HOST: 'smtp.example.test',
      PAYMENTS_IPN_BASE_URL: 'https://api.example.test/api/v1',
      ...extra,
    });
  const admin = () => signAccessToken(TEST_JWT_SECRET, { roles: ['ADMIN'] });

  it('public diagnostics are hidden in production, liveness is not', async () => {
    expect(await statusOf(production(), '/api/v1/health')).toBe(200);
    expect(await statusOf(production(), '/api/v1/health/env')).toBe(404);
    expect(await statusOf(production(), '/api/v1/health/deps')).toBe(404);
  });

  it('admin diagnostics in production need HEALTH_DETAIL_ENABLED', async () => {
    expect(await statusOf(production(), '/api/v1/health/admin/env', admin())).toBe(404);
    expect(await statusOf(production({ HEALTH_DETAIL_ENABLED: 'true' }), '/api/v1/health/admin/env', admin())).toBe(200);
    expect(await statusOf(production({ HEALTH_DETAIL_ENABLED: 'true' }), '/api/v1/health/admin/env')).toBe(401);
  });

  it('docs follow SWAGGER_ENABLED', async () => {
    expect(await statusOf(testConfig({ SWAGGER_ENABLED: 'false' }), '/docs-json')).toBe(404);
    expect(await statusOf(testConfig({ SWAGGER_ENABLED: 'false' }), '/docs/')).toBe(404);
    expect(await statusOf(testConfig(), '/docs-json')).toBe(200);
  });
});
