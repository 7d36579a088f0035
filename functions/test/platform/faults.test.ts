import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { buildApp } from '../../src/app';
import { parseConfig } from '../../src/platform/core/config';
import { adminTokens, registerVerified, type Tokens } from '../helpers/accounts';
import { call, testIp } from '../helpers/api';
import { balance } from '../helpers/wallet';
import { localSecret, requireEmulators } from '../helpers/emulators';
import { firestoreFaults, UNAVAILABLE, type FaultMode } from '../helpers/firestore-faults';
import { listen } from '../helpers/http';
import { audioFixture, storedFiles } from '../helpers/media-storage';

// Database faults in the middle of each kind of write, at every commit the operation makes: failed before it is
// sent, failed after it landed (the answer lost; UNAVAILABLE is also retried by the SDK's transaction runner), or
// stalled past the request deadline. The client then retries as a client would (same Idempotency-Key, or the
// same refresh token), and afterwards nothing is lost or doubled. The API runs in this process (the seam is
// under this process's Firestore client), with the shared stack's secrets and a 1.5 s deadline.
beforeAll(requireEmulators);
jest.setTimeout(180_000);
// file-type is ESM-only, which jest's module registry cannot require: the sniff answers for the one fixture used.
jest.mock('file-type', () => ({ fileTypeFromBuffer: async () => ({ ext: 'mp3', mime: 'audio/mpeg' }) }), { virtual: true });

const DEADLINE_MS = 1_500;
const faults = firestoreFaults();
afterAll(() => faults.restore());
// Each operation meets at least one stall on its answer's path, answered by the deadline.
let deadlineAnswers = 0;
beforeEach(() => (deadlineAnswers = 0));
afterEach(() => expect(deadlineAnswers).toBeGreaterThan(0));

const config = parseConfig({
  ...process.env,
  JWT_SECRET: localSecret('JWT_SECRET'),
  JWT_REFRESH_SECRET: localSecret('JWT_REFRESH_SECRET'),
  REQUEST_DEADLINE_MS: String(DEADLINE_MS),
  UPLOAD_DEADLINE_MS: String(DEADLINE_MS),
  TRUST_PROXY: 'true',
});
let server: { url: string; close(): Promise<void> };
beforeAll(async () => {
  server = await listen(buildApp({ config }).app);
});
afterAll(() => server.close());

type Answer = { status: number; body: any }; // eslint-disable-line @typescript-eslint/no-explicit-any
async function send(method: string, pathName: string, opts: { token?: string; body?: unknown; form?: FormData; key?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = { 'x-forwarded-for': testIp() };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.key) headers['idempotency-key'] = opts.key;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${server.url}/api/v1${pathName}`, {
    method,
    headers,
    body: opts.form ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const RETRYABLE = new Set([409, 500, 503]);

/** What a client does after a failure: the same request again, a moment later, until it gets a real answer. */
async function retryUntilAnswered(request: () => Promise<Answer>): Promise<Answer> {
  for (let attempt = 0; ; attempt++) {
    const answer = await request();
    if (!RETRYABLE.has(answer.status) || attempt === 30) return answer;
    await pause(200);
  }
}

const MODES: Array<[string, FaultMode, number | undefined]> = [
  ['failed before it is sent', 'fail-before', undefined],
  ['landed, answer lost (not retried)', 'fail-after', undefined],
  ['landed, answer lost (UNAVAILABLE, retried by the SDK)', 'fail-after', UNAVAILABLE],
  ['stalled past the deadline', 'stall', undefined],
];

/**
 * Runs `attempt` once with the `at`-th commit faulted, then retries it with faults off. A stall is released once
 * the faulted attempt has its answer (the deadline's 503 when the stall is on its path).
 */
async function withFault(
  at: number,
  mode: FaultMode,
  code: number | undefined,
  attempt: () => Promise<Answer>,
): Promise<{ first: Answer; final: Answer; hit: boolean }> {
  const fault = faults.inject(at, mode, code);
  const started = Date.now();
  const first = await attempt();
  const hit = faults.hits() > 0;
  faults.clear();
  if (mode === 'stall' && hit && first.status === 503) {
    expect(first.body.code).toBe('DEADLINE_EXCEEDED');
    expect(Date.now() - started).toBeLessThan(DEADLINE_MS + 2_000);
    deadlineAnswers += 1;
  }
  fault.release();
  await pause(100);
  return { first, final: await retryUntilAnswered(attempt), hit };
}

/** The number of commits one run of a fresh attempt makes (the fault positions to try), after a warm-up run. */
async function commitsOf(fresh: () => Promise<() => Promise<Answer>>): Promise<number> {
  // Loads the route's modules: a cold start on a busy machine may pass the deadline (503), retried with its key.
  expect((await retryUntilAnswered(await fresh())).status).toBeLessThan(300);
  // A run the deadline cut on a busy machine (503) made fewer commits than a whole one: counted again, fresh.
  for (let tries = 1; ; tries++) {
    const attempt = await fresh();
    faults.count();
    const answer = await attempt();
    await pause(200); // writes after the answer count too
    if (answer.status !== 503 || tries === 3) {
      expect(answer.status).toBeLessThan(300);
      return faults.commits();
    }
    await pause(2_000); // the cut run's handler finishes its writes before the next count starts
  }
}

describe('a ledger transfer (POST /wallet/transfers) under database faults', () => {
  let sender: Tokens;
  let recipient: Tokens;
  const AMOUNT = 1_000;
  let done = 0;
  const transfer = (key: string) => () =>
    send('POST', '/wallet/transfers', { token: sender.accessToken, body: { toUserId: recipient.user.id, amount: AMOUNT }, key });

  beforeAll(async () => {
    [sender, recipient] = [await registerVerified(), await registerVerified()];
    const topUp = await call('POST', '/wallet/topups', {
      token: sender.accessToken,
      body: { amount: 1_000_000, provider: 'MOCK' },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(topUp.status).toBe(201);
  });

  it('moves the money exactly once whichever commit fails or stalls', async () => {
    const commits = await commitsOf(async () => transfer(randomUUID()));
    done += 2;
    expect(commits).toBeGreaterThan(1);
    const tried: string[] = [];
    for (let at = 1; at <= commits; at++) {
      for (const [label, mode, code] of MODES) {
        const { final, hit } = await withFault(at, mode, code, transfer(randomUUID()));
        if (hit) tried.push(`${at}: ${label}`);
        expect({ at, label, status: final.status }).toEqual({ at, label, status: 201 });
        done += 1;
        expect({ at, label, balances: [await balance(sender), await balance(recipient)] }).toEqual({
          at,
          label,
          balances: [1_000_000 - done * AMOUNT, done * AMOUNT],
        });
      }
    }
    expect(tried.length).toBeGreaterThanOrEqual(commits);
    const history = await call('GET', '/wallet/transactions?kind=P2P&limit=100', { token: sender.accessToken });
    expect(history.body.items).toHaveLength(done);
    const admin = await adminTokens();
    for (const who of [sender, recipient]) {
      expect((await call('GET', `/wallet/admin/users/${who.user.id}/check`, { token: admin.accessToken })).body).toMatchObject({ ok: true });
    }
  });
});

describe('a wallet top-up (POST /wallet/topups, MOCK gateway) under database faults', () => {
  // A payment the fault cut may end CANCELLED (the payments module's choice; the retry replays it): then nothing
  // is credited. Either way the wallet holds exactly the SUCCEEDED top-ups, once each.
  it('credits the wallet exactly once per succeeded top-up whichever commit fails or stalls', async () => {
    const payer = await registerVerified();
    const AMOUNT = 10_000;
    let done = 0;
    const topUp = (key: string) => () => send('POST', '/wallet/topups', { token: payer.accessToken, body: { amount: AMOUNT, provider: 'MOCK' }, key });
    const commits = await commitsOf(async () => topUp(randomUUID()));
    done += 2;
    for (let at = 1; at <= commits; at++) {
      for (const [label, mode, code] of MODES) {
        const key = randomUUID();
        const { final } = await withFault(at, mode, code, topUp(key));
        expect({ at, label, status: final.status, paid: ['SUCCEEDED', 'CANCELLED'].includes(final.body.status) }).toEqual({
          at,
          label,
          status: 201,
          paid: true,
        });
        const again = await topUp(key)();
        expect({ at, label, replay: [again.body.id, again.body.status] }).toEqual({ at, label, replay: [final.body.id, final.body.status] });
        if (final.body.status === 'SUCCEEDED') done += 1;
        expect({ at, label, balance: await balance(payer) }).toEqual({ at, label, balance: done * AMOUNT });
      }
    }
    const admin = await adminTokens();
    expect((await call('GET', `/wallet/admin/users/${payer.user.id}/check`, { token: admin.accessToken })).body).toMatchObject({ ok: true });
  });
});

describe('an upload (POST /upload/single with an Idempotency-Key) under database faults', () => {
  const AUDIO = audioFixture('tone.mp3');
  const upload = (who: Tokens, key: string) => () => {
    const form = new FormData();
    form.append('file', new Blob([AUDIO], { type: 'audio/mpeg' }), 'tone.mp3');
    return send('POST', '/upload/single', { token: who.accessToken, form, key });
  };

  it('stores one item with one object whichever commit fails or stalls', async () => {
    const commits = await commitsOf(async () => upload(await registerVerified(), randomUUID()));
    expect(commits).toBeGreaterThan(1);
    for (let at = 1; at <= commits; at++) {
      for (const [label, mode, code] of MODES) {
        const who = await registerVerified();
        const { final } = await withFault(at, mode, code, upload(who, randomUUID()));
        expect({ at, label, status: final.status }).toEqual({ at, label, status: 201 });
        const items = (await call('GET', '/media?limit=10', { token: who.accessToken })).body.items as Array<{ id: string; status: string; objectKey: string }>;
        expect({ at, label, items: items.map((i) => [i.id, i.status]) }).toEqual({ at, label, items: [[final.body.id, 'READY']] });
        expect({ at, label, files: storedFiles(who.user.id) }).toEqual({ at, label, files: [path.basename(final.body.objectKey)] });
      }
    }
  });
});

describe('a token refresh (POST /auth/refresh) under database faults', () => {
  const refresh = (token: string) => () => send('POST', '/auth/refresh', { body: { refreshToken: token } });
  const me = (token: string) => send('GET', '/users/me', { token });

  it('keeps the session whichever commit fails or stalls, and the client retry gets the one new pair', async () => {
    const commits = await commitsOf(async () => refresh((await registerVerified()).refreshToken));
    for (let at = 1; at <= commits; at++) {
      for (const [label, mode, code] of MODES) {
        const account = await registerVerified();
        const { first, final } = await withFault(at, mode, code, refresh(account.refreshToken));
        // The client may never have seen the first answer: it retries with the token it holds, which must work.
        const retry = first.status === 200 ? await refresh(account.refreshToken)() : final;
        expect({ at, label, status: retry.status }).toEqual({ at, label, status: 200 });
        if (first.status === 200) expect(retry.body.refreshToken).toBe(first.body.refreshToken);
        expect((await me(account.accessToken)).status).toBe(200);
        expect((await me(retry.body.accessToken)).status).toBe(200);
        expect((await me(account.accessToken)).status).toBe(401);
        const next = await refresh(retry.body.refreshToken)();
        expect({ at, label, next: next.status }).toEqual({ at, label, next: 200 });
      }
    }
  });
});
