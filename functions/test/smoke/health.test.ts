import fs from 'node:fs';
import path from 'node:path';
import { API, localSecret, requireEmulators } from '../helpers/emulators';
import { signAccessToken } from '../helpers/tokens';
import { adminTokens, signUpByMail } from '../helpers/accounts';

beforeAll(requireEmulators);

describe('health on the emulator stack (hosting → functions → firestore/auth)', () => {
  it('GET /health answers 200 with a request id', async () => {
    const res = await fetch(`${API}/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await res.json()).toMatchObject({ status: 'ok', service: 'superapp-backend', version: '1.0.0' });
  });

  it('GET /health/env shows every switch and masks secrets', async () => {
    const res = await fetch(`${API}/health/env`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { production: boolean; config: Record<string, unknown>; runtime: { emulators: { firestore: string } } };
    expect(body.production).toBe(false);
    expect(body.config.JWT_SECRET).toBe('********');
    expect(body.config.JWT_REFRESH_SECRET).toBe('********');
    expect(body.config.SWAGGER_ENABLED).toBe(true);
    expect(body.runtime.emulators.firestore).toBe('127.0.0.1:8080');
    const text = JSON.stringify(body);
    expect(text).not.toContain(localSecret('JWT_SECRET'));
    expect(text).not.toContain(localSecret('JWT_REFRESH_SECRET'));
  });

  it("the function and the tests run on the deployed runtime's Node major (firebase.json)", async () => {
    const firebaseJson = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'firebase.json'), 'utf8')) as {
      functions: Array<{ runtime: string }>;
    };
    const major = /^nodejs(\d+)$/.exec(firebaseJson.functions[0]!.runtime)![1];
    const body = (await (await fetch(`${API}/health/env`)).json()) as { runtime: { node: string } };
    expect(body.runtime.node.split('.')[0]).toBe(`v${major}`);
    expect(process.version.split('.')[0]).toBe(`v${major}`);
  });

  it('GET /health/deps reaches Firestore and Auth and reports latency', async () => {
    const res = await fetch(`${API}/health/deps`);
    const body = (await res.json()) as { status: string; checks: Array<{ name: string; ok: boolean; latencyMs: number }> };
    expect(res.status).toBe(200);
    expect(body.status).toBe('ok');
    // npm test's environment configures SMTP and the http SMS gateway (the local sinks): both are probed.
    expect(body.checks.map((c) => c.name).sort()).toEqual(['auth', 'firestore', 'sms-http', 'smtp']);
    for (const check of body.checks) {
      expect(check.ok).toBe(true);
      expect(check.latencyMs).toBeGreaterThan(0);
    }
  });

  describe('admin diagnostics', () => {
    const get = (path: string, token?: string) => fetch(`${API}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

    it.each(['/health/admin/env', '/health/admin/deps'])('%s: 401 anonymous or forged, 403 USER, 200 ADMIN', async (path) => {
      const secret = localSecret('JWT_SECRET');
      expect((await get(path)).status).toBe(401);
      // Well signed, ADMIN in the claims, but no session behind it: refused.
      expect((await get(path, signAccessToken(secret, { roles: ['USER', 'ADMIN'] }))).status).toBe(401);
      const user = await signUpByMail();
      expect((await get(path, user.accessToken)).status).toBe(403);
      const admin = await adminTokens();
      expect((await get(path, admin.accessToken)).status).toBe(200);
    });

    it('refuses a token signed with the refresh secret', async () => {
      const token = signAccessToken(localSecret('JWT_REFRESH_SECRET'), { roles: ['ADMIN'] });
      expect((await get('/health/admin/env', token)).status).toBe(401);
    });
  });
});
