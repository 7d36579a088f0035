import type { Request, Response } from 'express';
import { keepClaimed, recordId, requestHashOf, type AnswerInCommit, type IdempotencyStore, type StoredAnswer } from '../../kits/idempotency/idempotency';
import { clientIp } from './client-ip';
import { answeredAtDeadline } from './deadline';
import { sendJson } from './send-json';

// The run of an idempotent route's request with an Idempotency-Key (platform/kits/idempotency): claim, run, store the
// answer; or replay it. Binary answers are never idempotent (refused when the route is defined).

/** What of a route (route.ts's RouteDefinition) the run needs. */
interface ClaimedRoute {
  method: string;
  path: string;
  multipart?: unknown;
  claimBeside?: boolean;
  response: { status?: number; schema: { parse(value: unknown): unknown } };
  handler(ctx: never): unknown;
}

/** What of the handler's context (route.ts's HandlerContext) the run reads and fills. */
interface ClaimedContext {
  auth: { userId: string } | undefined;
  params: unknown;
  body: unknown;
  idempotencyKey?: string;
  claimed?: () => Promise<void>;
  answerInCommit?: AnswerInCommit;
}

/** What `ctx.claimed()` rejects with when the request does not hold its key's claim (never answered to the client). */
export class ClaimNotHeldError extends Error {
  constructor() {
    super('the idempotency claim is not held by this request');
  }
}

// A route with an Idempotency-Key: the first request claims the key and runs, a retry gets the stored answer.
export async function runClaimed(
  route: ClaimedRoute,
  store: IdempotencyStore,
  req: Request,
  res: Response,
  ctx: ClaimedContext,
  statusOverride: () => number | undefined,
  /** A per-user rate limit's verdict the guard let the request on without (per-user-limit.ts): it rejects with the 429. */
  limitVerdict?: Promise<void>,
): Promise<void> {
  const caller = ctx.auth?.userId ?? `ip:${clientIp(req)}`;
  const claiming = store.claim(
    recordId(caller, `${route.method} ${route.path}`, ctx.idempotencyKey!),
    requestHashOf(route.multipart ? [ctx.params, ctx.body, req.get('content-length') ?? null] : [ctx.params, ctx.body]),
    Date.now(),
  );
  const storedAnswerOf = (result: unknown): StoredAnswer => ({
    status: statusOverride() ?? route.response.status ?? 200,
    body: route.response.schema.parse(result),
  });
  // The claim this request holds, known before anything awaiting the claim resumes (the handler's `claimed()` included).
  let heldClaim: { id: string; token: string } | undefined;
  claiming.then(
    (c) => {
      if (c.kind === 'run') heldClaim = c;
    },
    () => undefined,
  );
  // The answer a handler stored in its transaction, with the result it was made of (the last attempt's).
  let inCommit: { result: unknown; answer: StoredAnswer } | undefined;
  if (store.txComplete) {
    const txComplete = store.txComplete.bind(store);
    ctx.answerInCommit = (tx, result) => {
      // Each attempt of the transaction starts over: only what the last one stored can have committed.
      inCommit = undefined;
      if (!heldClaim) return result; // not this request's run (the handler must not write before `claimed()`)
      const answer = storedAnswerOf(result);
      if (txComplete(tx, heldClaim.id, heldClaim.token, answer, Date.now())) inCommit = { result, answer };
      return result;
    };
  }
  // A handler started beside the claim waits at `claimed()` for a claim this request holds, still held at its
  // deadline check below; its outcome is never answered otherwise.
  let running: Promise<unknown> | undefined;
  const admitted = limitVerdict ?? Promise.resolve();
  if (route.claimBeside) {
    const held = Promise.all([claiming, admitted]).then(([c]) => {
      if (c.kind !== 'run' || answeredAtDeadline(res)) throw new ClaimNotHeldError();
    });
    held.catch(() => undefined);
    ctx.claimed = () => held;
    running = Promise.resolve().then(() => route.handler(ctx as never));
    running.catch(() => undefined);
  }
  const claimed = await claiming;
  try {
    await admitted;
  } catch (err) {
    // Refused by the limit: the key is freed (nothing was written) and a replay is not answered either.
    if (claimed.kind === 'run') await store.release(claimed.id, claimed.token).catch(() => undefined);
    throw err;
  }
  if (claimed.kind === 'run' && answeredAtDeadline(res)) {
    // The claim itself stalled past the deadline: nothing ran yet, so the key is freed for the retry.
    await store.release(claimed.id, claimed.token).catch(() => undefined);
    return;
  }
  if (claimed.kind === 'replay') {
    res.setHeader('Idempotent-Replayed', 'true');
    sendJson(res, claimed.answer.status, claimed.answer.body);
    return;
  }
  // The claim is held for as long as the handler runs, past a deadline answer too: a retry meanwhile is a 409,
  // never a second run. Only a claim nobody renews (its instance died) can be taken over.
  const stopRenewing = keepClaimed(store, claimed.id, claimed.token);
  try {
    const result = await (running ?? route.handler(ctx as never));
    if (inCommit && inCommit.result === result) {
      store.completedInCommit?.(claimed.token);
      sendJson(res, inCommit.answer.status, inCommit.answer.body);
      return;
    }
    const { status, body } = storedAnswerOf(result);
    await store.complete(claimed.id, claimed.token, { status, body }, Date.now());
    sendJson(res, status, body);
  } catch (err) {
    // A failed run frees its key: nothing was created, so the client may retry it.
    await store.release(claimed.id, claimed.token).catch(() => undefined);
    throw err;
  } finally {
    stopRenewing();
  }
}
