// The typed client (web/client) against the stack through Hosting, as an app would use it: the bearer token,
// refresh with rotation (one refresh for many waiting requests), Idempotency-Key on the operations that take one,
// errors as ApiError with the API's code, cursor paging, and the end of a revoked session.
import { randomUUID } from 'node:crypto';
import { ApiError, createSuperappClient, memoryTokenStore, pages, permits, unwrap, type SuperappClient, type TokenStore } from '../../../web/client';
import { adminTokens, signUpByMail } from '../helpers/accounts';
import { call, testIp } from '../helpers/api';
import { API, requireEmulators } from '../helpers/emulators';

beforeAll(requireEmulators);

// A client whose fetch counts the refreshes it sends and comes from its own address (per-IP limits stay the file's).
function appClient(tokens: TokenStore = memoryTokenStore(), options: { newIdempotencyKey?: () => string } = {}) {
  const seen = { refreshes: 0, ended: [] as string[], keys: [] as (string | null)[], foreign: [] as (string | null)[] };
  const ip = testIp();
  const fetchCounted: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    // Another host: answered here, with what it would have been sent.
    if (!request.url.startsWith(API)) {
      seen.foreign.push(request.headers.get('authorization'));
      return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
    }
    request.headers.set('x-forwarded-for', ip);
    if (request.url.endsWith('/auth/refresh')) seen.refreshes++;
    if (request.method === 'POST') seen.keys.push(request.headers.get('idempotency-key'));
    return fetch(request);
  };
  const client = createSuperappClient({ baseUrl: API, tokens, fetch: fetchCounted, onSessionEnded: (code) => seen.ended.push(code), ...options });
  return { client, tokens, seen };
}

async function signIn(client: SuperappClient, email: string, password: string) {
  const answer = unwrap(await client.api.POST('/auth/login/password', { body: { email, password, deviceName: 'typed-client test' } }));
  if ('requiresTwoFa' in answer) throw new Error('two-factor is off for test accounts');
  client.signedIn(answer);
  return answer;
}

describe('typed client (web/client) through Hosting', () => {
  it('signs in, sends the bearer token, and refreshes ahead of the end once for many requests at once', async () => {
    const user = await signUpByMail();
    const { client, tokens, seen } = appClient();
    await signIn(client, user.email, user.password);
    const me = unwrap(await client.api.GET('/users/me'));
    expect(me.id).toBe(user.user.id);

    const before = tokens.get()!;
    tokens.set({ ...before, expiresAt: Date.now() + 1_000 }); // within the refresh-ahead margin
    const answers = await Promise.all(Array.from({ length: 5 }, () => client.api.GET('/users/me')));
    expect(answers.map((a) => a.response.status)).toEqual([200, 200, 200, 200, 200]);
    expect(seen.refreshes).toBe(1);
    expect(tokens.get()!.refreshToken).not.toBe(before.refreshToken);
    expect(tokens.get()!.expiresAt).toBeGreaterThan(Date.now() + 60_000);
  });

  it('the token goes to the configured API only, not to a call given another base URL', async () => {
    const user = await signUpByMail();
    const { client, seen } = appClient();
    await signIn(client, user.email, user.password);
    await client.api.GET('/users/me', { baseUrl: 'https://elsewhere.example/api/v1' });
    expect(seen.foreign).toEqual([null]);
    expect((await client.api.GET('/users/me')).response.status).toBe(200);
  });

  it('an access token the API refuses as invalid is refreshed and the request sent again, once', async () => {
    const user = await signUpByMail();
    const { client, tokens, seen } = appClient();
    await signIn(client, user.email, user.password);
    tokens.set({ ...tokens.get()!, accessToken: 'not.a.token' });
    const res = await client.api.GET('/users/me');
    expect([res.response.status, res.data?.id]).toEqual([200, user.user.id]);
    expect(seen.refreshes).toBe(1);
  });

  it('adds an Idempotency-Key where the operation takes one: a retry with the same key gets the first answer', async () => {
    const user = await signUpByMail();
    const key = randomUUID();
    const { client, seen } = appClient(memoryTokenStore(), { newIdempotencyKey: () => key });
    await signIn(client, user.email, user.password);
    const first = unwrap(await client.api.POST('/wallet/topups', { body: { amount: 10_000, provider: 'MOCK' } }));
    const again = unwrap(await client.api.POST('/wallet/topups', { body: { amount: 10_000, provider: 'MOCK' } }));
    expect(again.id).toBe(first.id);
    const wallet = unwrap(await client.api.GET('/wallet'));
    expect(wallet.balance).toBe(10_000);
    // The sign-in takes no key (it is not in the operation's contract); the top-ups did.
    expect(seen.keys).toEqual([null, key, key]);
    // Where a key is optional the API's keyless default stands: none is added (the app passes one per action).
    const other = appClient(memoryTokenStore(), { newIdempotencyKey: () => key });
    await signIn(other.client, user.email, user.password);
    const saved = await other.client.api.POST('/addresses', {
      body: { label: 'OTHER', title: 'Chợ', address: 'Chợ Bến Thành, Quận 1', location: { lat: 10.7725, lng: 106.698 } },
    });
    expect(saved.response.status).toBe(201);
    expect(other.seen.keys).toEqual([null, null]);
  });

  it('errors are ApiError with the stable code; permits() follows the admin permissions of the document', async () => {
    const user = await signUpByMail();
    const { client } = appClient();
    await signIn(client, user.email, user.password);
    const refused = await client.api.GET('/users/admin', { params: { query: {} } });
    let error: unknown;
    try {
      unwrap(refused);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect([(error as ApiError).status, (error as ApiError).code]).toEqual([403, 'ROLE_REQUIRED']);
    expect((error as ApiError).requestId).toEqual(expect.any(String));
    expect(permits(['users.manage'], 'GET', '/users/admin')).toBe(true);
    expect(permits(['payments.manage'], 'GET', '/users/admin')).toBe(false);
    expect(permits(['*'], 'GET', '/users/admin')).toBe(true);
    expect(permits([], 'GET', '/users/me')).toBe(true);
    expect(permits(['*'], 'GET', '/no/such/operation')).toBe(false);
  });

  it('pages() follows nextCursor to the end without repeating a row', async () => {
    const admin = await adminTokens();
    const { client, tokens } = appClient();
    tokens.set({ accessToken: admin.accessToken, refreshToken: admin.refreshToken, expiresAt: Date.now() + 10 * 60_000 });
    const ids: string[] = [];
    let pagesRead = 0;
    for await (const page of pages((cursor) =>
      client.api.GET('/users/admin', { params: { query: { limit: 2, role: 'ADMIN', ...(cursor ? { cursor } : {}) } } }).then(unwrap),
    )) {
      ids.push(...page.users.map((u) => u.id));
      if (++pagesRead === 3) break;
    }
    expect(pagesRead).toBeGreaterThanOrEqual(1);
    expect(new Set(ids).size).toBe(ids.length);
    const bad = await client.api.GET('/users/admin', { params: { query: { cursor: 'not-a-cursor' } } });
    expect(() => unwrap(bad)).toThrow(expect.objectContaining({ code: 'INVALID_CURSOR', status: 400 }));
  });

  it('a session revoked elsewhere ends here: tokens forgotten, onSessionEnded called with the code', async () => {
    const user = await signUpByMail();
    const { client, tokens, seen } = appClient();
    await signIn(client, user.email, user.password);
    const other = await call('POST', '/auth/login/password', { body: { email: user.email, password: user.password } });
    expect((await call('POST', '/auth/logout', { token: other.body.accessToken, body: { allSessions: true } })).status).toBe(200);
    const res = await client.api.GET('/users/me');
    expect(res.response.status).toBe(401);
    expect(seen.ended).toEqual(['TOKEN_REVOKED']);
    expect(tokens.get()).toBeNull();
    expect(await client.session()).toBeNull();
  });
});
