import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { z } from 'zod';
import { buildApp } from '../../src/app';
import { db, inTransaction } from '../../src/platform/core/firebase/firebase';
import { ConflictError } from '../../src/platform/core/errors/app-error';
import { createJwtAccessTokenVerifier } from '../../src/platform/core/auth/access-token';
import {
  firestoreIdempotencyStore,
  IDEMPOTENCY_COLLECTION,
  IDEMPOTENCY_LEASE_MS,
  IDEMPOTENCY_TTL_MS,
  memoryIdempotencyStore,
  recordId,
  type IdempotencyStore,
} from '../../src/platform/kits/idempotency/idempotency';
import type { ApiModule } from '../../src/platform/core/http/module';
import { defineRoute } from '../../src/platform/core/http/route';
import { createRateLimiter, memoryRateLimitStore } from '../../src/platform/core/ratelimit/rate-limit';
import { testConfig } from '../helpers/config';
import { requireEmulators } from '../helpers/emulators';
import { listen } from '../helpers/http';

// defineRoute({ idempotent: true }) with the Firestore store (and the memory one, which must agree).
beforeAll(requireEmulators);

const config = testConfig();
const token = (sub: string) =>
  jwt.sign({ sub, jti: randomUUID(), sid: 's', typ: 'access', roles: ['USER'] }, config.JWT_SECRET, { algorithm: 'HS256', expiresIn: 600 });

/** The app of one probe module, with the idempotency store given (its other stores in memory). */
const probeApp = (module: ApiModule, store: IdempotencyStore) =>
  buildApp({
    config,
    modules: [module],
    idempotency: store,
    verifyAccessToken: createJwtAccessTokenVerifier(config.JWT_SECRET),
    rateLimiter: createRateLimiter(memoryRateLimitStore()),
  }).app;

function probe(store: IdempotencyStore) {
  let runs = 0;
  let failNext = false;
  let gate: Promise<void> | undefined;
  // The claimBeside route: `started` counts handlers that began (beside the claim), `written` those past claimed().
  let started = 0;
  let written = 0;
  const module = {
    name: 'probe',
    routes: () => [
      defineRoute({
        method: 'post',
        path: '/probe/carts',
        operationId: 'postProbeCarts',
        tag: 'health',
        summary: 'reads beside the claim, then writes',
        auth: [],
        idempotent: 'required',
        claimBeside: true,
        request: { body: z.object({ item: z.string() }) },
        response: { status: 201, description: 'created', schema: z.object({ id: z.string(), written: z.number() }) },
        handler: async ({ body, claimed }) => {
          started += 1;
          if (body.item === 'sold out') throw new ConflictError('sold out').withCode('OUT_OF_STOCK');
          await claimed!();
          written += 1;
          const mine = written;
          if (gate) await gate;
          return { id: randomUUID(), written: mine };
        },
      }),
      defineRoute({
        method: 'post',
        path: '/probe/orders',
        operationId: 'postProbeOrders',
        tag: 'health',
        summary: 'creates an order',
        auth: [],
        idempotent: true,
        request: { body: z.object({ item: z.string() }) },
        response: { status: 201, description: 'created', schema: z.object({ id: z.string(), item: z.string(), run: z.number() }) },
        handler: async ({ body }) => {
          runs += 1;
          const run = runs;
          if (gate) await gate;
          if (failNext) {
            failNext = false;
            throw new Error('storage down');
          }
          return { id: randomUUID(), item: body.item, run };
        },
      }),
    ],
  };
  const app = probeApp(module, store);
  return {
    app,
    runs: () => runs,
    beside: () => ({ started, written }),
    failOnce: () => (failNext = true),
    hold: () => {
      let open!: () => void;
      gate = new Promise((r) => (open = r));
      return () => {
        gate = undefined;
        open();
      };
    },
  };
}

describe.each([
  ['Firestore', firestoreIdempotencyStore],
  ['memory', memoryIdempotencyStore],
])('Idempotency-Key (%s store)', (_name, makeStore) => {
  const p = probe(makeStore());
  let server: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    server = await listen(p.app);
  });
  afterAll(() => server.close());

  const post = async (body: unknown, opts: { key?: string; as?: string; path?: string } = {}) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', authorization: `Bearer ${token(opts.as ?? 'alice')}` };
    if (opts.key !== undefined) headers['idempotency-key'] = opts.key;
    const res = await fetch(`${server.url}/api/v1${opts.path ?? '/probe/orders'}`, { method: 'POST', headers, body: JSON.stringify(body) });
    return {
      status: res.status,
      body: (await res.json()) as Record<string, unknown>,
      replayed: res.headers.get('idempotent-replayed'),
      retryAfter: res.headers.get('retry-after'),
    };
  };

  it('a retried request with the same key runs once and replays the first answer; another body is 422', async () => {
    const key = `k-${randomUUID()}`;
    const before = p.runs();
    const first = await post({ item: 'pho' }, { key });
    const retry = await post({ item: 'pho' }, { key });
    expect(first.status).toBe(201);
    expect(retry).toEqual({ status: 201, body: first.body, replayed: 'true', retryAfter: null });
    expect(p.runs()).toBe(before + 1);
    const other = await post({ item: 'bun cha' }, { key });
    expect([other.status, other.body.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    // Keys belong to their caller: the same key from someone else is a new request.
    expect((await post({ item: 'pho' }, { key, as: 'bob' })).body.id).not.toBe(first.body.id);
    // Without a key every request runs.
    const [a, b] = [await post({ item: 'pho' }), await post({ item: 'pho' })];
    expect(a.body.id).not.toBe(b.body.id);
  });

  it('two racing requests with one key: one runs, the other gets 409 while it runs, and the replay afterwards', async () => {
    const key = `k-${randomUUID()}`;
    const release = p.hold();
    const first = post({ item: 'com tam' }, { key });
    await new Promise((r) => setTimeout(r, 300));
    const racing = await post({ item: 'com tam' }, { key });
    expect([racing.status, racing.body.code, racing.retryAfter]).toEqual([409, 'IDEMPOTENCY_IN_PROGRESS', '2']);
    release();
    const done = await first;
    expect(done.status).toBe(201);
    expect((await post({ item: 'com tam' }, { key })).body).toEqual(done.body);
  });

  it('a failed run frees its key: the retry runs again', async () => {
    const key = `k-${randomUUID()}`;
    p.failOnce();
    expect((await post({ item: 'banh mi' }, { key })).status).toBe(500);
    const retry = await post({ item: 'banh mi' }, { key });
    expect(retry.status).toBe(201);
    expect(retry.replayed).toBeNull();
  });

  it('claimBeside: the handler reads beside the claim; a replay, a racing request and a refusal write nothing more', async () => {
    const key = `k-${randomUUID()}`;
    const at = p.beside();
    const first = await post({ item: 'bread' }, { key, path: '/probe/carts' });
    expect(first.status).toBe(201);
    // The retry's handler starts (reads), but never passes claimed(): the first answer is replayed.
    const retry = await post({ item: 'bread' }, { key, path: '/probe/carts' });
    expect(retry).toMatchObject({ status: 201, body: first.body, replayed: 'true' });
    await new Promise((r) => setTimeout(r, 50));
    expect(p.beside()).toEqual({ started: at.started + 2, written: at.written + 1 });
    // Racing: while the first holds the key, the second is 409 and does not write.
    const racingKey = `k-${randomUUID()}`;
    const release = p.hold();
    const held = post({ item: 'rice' }, { key: racingKey, path: '/probe/carts' });
    await new Promise((r) => setTimeout(r, 300));
    const racing = await post({ item: 'rice' }, { key: racingKey, path: '/probe/carts' });
    expect([racing.status, racing.body.code]).toEqual([409, 'IDEMPOTENCY_IN_PROGRESS']);
    release();
    expect((await held).status).toBe(201);
    await new Promise((r) => setTimeout(r, 50));
    expect(p.beside().written).toBe(at.written + 2);
    // A refusal before claimed() is the answer, and frees the key: the retry runs again (neither 409 nor a replay).
    const refusedKey = `k-${randomUUID()}`;
    const before = p.beside().started;
    expect((await post({ item: 'sold out' }, { key: refusedKey, path: '/probe/carts' })).body.code).toBe('OUT_OF_STOCK');
    expect((await post({ item: 'sold out' }, { key: refusedKey, path: '/probe/carts' })).body.code).toBe('OUT_OF_STOCK');
    expect(p.beside()).toEqual({ started: before + 2, written: at.written + 2 });
  });

  it('a malformed key is a 400 naming the header', async () => {
    const res = await post({ item: 'x' }, { key: 'has spaces in it' });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([expect.objectContaining({ field: 'headers.idempotency-key' })]);
  });
});

// The store's own rules, both stores: the Firestore one claims a new key with one create and completes it with one
// conditional update, and falls back to a transaction whenever something else wrote the entry.
describe.each([
  ['Firestore', firestoreIdempotencyStore],
  ['memory', memoryIdempotencyStore],
])('idempotency store (%s)', (_name, makeStore) => {
  const store = makeStore();
  const id = () => `probe-${randomUUID()}`;
  const answer = (n: number) => ({ status: 201, body: { n } });

  it('a completion after a renewal is stored (the entry was written since its claim)', async () => {
    const key = id();
    const claim = await store.claim(key, 'h', 1_000);
    if (claim.kind !== 'run') throw new Error('expected a run');
    expect(await store.renew(key, claim.token, 2_000)).toBe(true);
    await store.complete(key, claim.token, answer(1), 3_000);
    expect(await store.claim(key, 'h', 4_000)).toEqual({ kind: 'replay', answer: answer(1) });
  });

  it('a claim whose lease ran out is taken over: the first run can no longer complete it, the second does', async () => {
    const key = id();
    const first = await store.claim(key, 'h', 1_000);
    const second = await store.claim(key, 'h', 1_000 + IDEMPOTENCY_LEASE_MS + 1);
    if (first.kind !== 'run' || second.kind !== 'run') throw new Error('expected two runs');
    expect(second.token).not.toBe(first.token);
    await store.complete(key, first.token, answer(1), 2_000 + IDEMPOTENCY_LEASE_MS);
    await expect(store.claim(key, 'h', 3_000 + IDEMPOTENCY_LEASE_MS)).rejects.toMatchObject({ code: 'IDEMPOTENCY_IN_PROGRESS' });
    await store.complete(key, second.token, answer(2), 4_000 + IDEMPOTENCY_LEASE_MS);
    expect(await store.claim(key, 'h', 5_000 + IDEMPOTENCY_LEASE_MS)).toEqual({ kind: 'replay', answer: answer(2) });
    await store.release(key, second.token);
    expect(await store.claim(key, 'h', 6_000 + IDEMPOTENCY_LEASE_MS)).toEqual({ kind: 'replay', answer: answer(2) });
  });

  it('an entry past its expiry (not yet removed by the TTL) is claimed anew; a released claim too', async () => {
    const key = id();
    const first = await store.claim(key, 'h', 1_000);
    if (first.kind !== 'run') throw new Error('expected a run');
    await store.complete(key, first.token, answer(1), 1_000);
    const again = await store.claim(key, 'other body', 2_000 + IDEMPOTENCY_TTL_MS);
    if (again.kind !== 'run') throw new Error('expected a run');
    await store.release(key, again.token);
    const third = await store.claim(key, 'h', 3_000 + IDEMPOTENCY_TTL_MS);
    expect(third.kind).toBe('run');
  });
});

describe('Firestore idempotency store: the round trips', () => {
  const store = firestoreIdempotencyStore();
  const id = () => `probe-${randomUUID()}`;
  const answer = (n: number) => ({ status: 201, body: { n } });

  it("an answer goes in a run's commit only well before the claim's first renewal; later it is stored after", async () => {
    const key = id();
    const claim = await store.claim(key, 'h', Date.now());
    if (claim.kind !== 'run') throw new Error('expected a run');
    // 16 s after the claim (its renewal comes at 20 s): not in the commit, nothing written.
    expect(await inTransaction(async (tx) => store.txComplete!(tx, key, claim.token, answer(1), Date.now() + 16_000))).toBe(false);
    expect((await db().collection(IDEMPOTENCY_COLLECTION).doc(key).get()).get('state')).toBe('RUNNING');
    expect(await inTransaction(async (tx) => store.txComplete!(tx, key, claim.token, answer(2), Date.now()))).toBe(true);
    store.completedInCommit!(claim.token);
    expect(await store.claim(key, 'h', Date.now())).toEqual({ kind: 'replay', answer: answer(2) });
  });

  it('a new key is claimed and completed without a transaction; a completion after another write of the entry falls back to one', async () => {
    const transactions = jest.spyOn(db(), 'runTransaction');
    try {
      const key = id();
      const claim = await store.claim(key, 'h', Date.now());
      if (claim.kind !== 'run') throw new Error('expected a run');
      await store.complete(key, claim.token, answer(1), Date.now());
      expect(transactions).not.toHaveBeenCalled();
      // Written since the claim (as a renewal would): the conditional update fails, the transaction stores the answer.
      const other = id();
      const second = await store.claim(other, 'h', Date.now());
      if (second.kind !== 'run') throw new Error('expected a run');
      await db()
        .collection(IDEMPOTENCY_COLLECTION)
        .doc(other)
        .update({ leaseUntil: Date.now() + IDEMPOTENCY_LEASE_MS });
      await store.complete(other, second.token, answer(2), Date.now());
      expect(transactions).toHaveBeenCalledTimes(1);
      expect(await store.claim(other, 'h', Date.now())).toEqual({ kind: 'replay', answer: answer(2) });
    } finally {
      transactions.mockRestore();
    }
  });
});

// A handler storing its answer in its own transaction (ctx.answerInCommit): no write after the commit.
describe("Idempotency-Key: the answer stored in the handler's commit", () => {
  const store = firestoreIdempotencyStore();
  const tickets = () => db().collection('probe_tickets');
  const module = {
    name: 'probe',
    routes: () => [
      defineRoute({
        method: 'post',
        path: '/probe/tickets',
        operationId: 'postProbeTickets',
        tag: 'health',
        summary: 'writes in a transaction, its answer with it',
        auth: [],
        idempotent: 'required',
        request: { body: z.object({ item: z.string(), returns: z.enum(['stored', 'another']), renewFirst: z.boolean() }) },
        response: { status: 201, description: 'created', schema: z.object({ id: z.string(), item: z.string() }) },
        handler: ({ body, auth, idempotencyKey, answerInCommit }) =>
          inTransaction(async (tx) => {
            const id = `ticket-${randomUUID()}`;
            // As a renewal of the claim would, between the claim and the commit.
            if (body.renewFirst)
              await db()
                .collection(IDEMPOTENCY_COLLECTION)
                .doc(recordId(auth!.userId, 'post /probe/tickets', idempotencyKey!))
                .update({ leaseUntil: Date.now() + IDEMPOTENCY_LEASE_MS });
            tx.create(tickets().doc(id), { item: body.item });
            const result = { id, item: body.item, internal: 'not answered' };
            answerInCommit!(tx, result);
            return body.returns === 'stored' ? result : { ...result, item: `${body.item} (after)` };
          }),
      }),
    ],
  };
  const app = probeApp(module, store);
  let server: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    server = await listen(app);
  });
  afterAll(() => server.close());
  const post = async (key: string, body: { item: string; returns: 'stored' | 'another'; renewFirst: boolean }) => {
    const res = await fetch(`${server.url}/api/v1/probe/tickets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token('alice')}`, 'idempotency-key': key },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown>, replayed: res.headers.get('idempotent-replayed') };
  };
  const entry = async (key: string) =>
    (
      await db()
        .collection(IDEMPOTENCY_COLLECTION)
        .doc(recordId('alice', 'post /probe/tickets', key))
        .get()
    ).data();

  it("the answer commits with the handler's writes: nothing is written after, and the retry replays it", async () => {
    const completions = jest.spyOn(store, 'complete');
    try {
      const key = `k-${randomUUID()}`;
      const first = await post(key, { item: 've', returns: 'stored', renewFirst: false });
      expect(first).toMatchObject({ status: 201, body: { id: expect.any(String), item: 've' }, replayed: null });
      expect(first.body).not.toHaveProperty('internal'); // shaped by the response schema, as a stored answer always is
      expect(completions).not.toHaveBeenCalled();
      expect(await entry(key)).toMatchObject({ state: 'DONE', answer: { status: 201, body: JSON.stringify(first.body) } });
      expect(
        (
          await tickets()
            .doc(first.body.id as string)
            .get()
        ).data(),
      ).toEqual({ item: 've' });
      expect(await post(key, { item: 've', returns: 'stored', renewFirst: false })).toEqual({ ...first, replayed: 'true' });
    } finally {
      completions.mockRestore();
    }
  });

  it('a handler returning anything else has that stored after its commit, as without', async () => {
    const key = `k-${randomUUID()}`;
    const first = await post(key, { item: 'xoi', returns: 'another', renewFirst: false });
    expect(first.body.item).toBe('xoi (after)');
    expect(await post(key, { item: 'xoi', returns: 'another', renewFirst: false })).toEqual({ ...first, replayed: 'true' });
  });

  it('a claim written since (a renewal) fails the commit whole: nothing kept, the key freed, the retry runs', async () => {
    const key = `k-${randomUUID()}`;
    const before = (await tickets().where('item', '==', 'che').get()).size;
    const failed = await post(key, { item: 'che', returns: 'stored', renewFirst: true });
    expect(failed.status).toBe(500);
    expect((await tickets().where('item', '==', 'che').get()).size).toBe(before);
    expect(await entry(key)).toBeUndefined();
    const retry = await post(key, { item: 'che', returns: 'stored', renewFirst: false });
    expect(retry).toMatchObject({ status: 201, replayed: null, body: { item: 'che' } });
    expect((await tickets().where('item', '==', 'che').get()).size).toBe(before + 1);
  });
});
