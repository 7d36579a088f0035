import type { RequestHandler, Response } from 'express';
import { AppError } from '../errors/app-error';
import { errorBody } from '../errors/error-body';
import { logger } from '../logging/logger';
import { API_TIMEOUT_SECONDS } from '../deploy/settings';

// A stalled dependency (the database paused, a gateway hanging) must not hold a request until the client gives
// up without an answer: at REQUEST_DEADLINE_MS the API answers 503 DEADLINE_EXCEEDED with Retry-After, once.
// The handler is not interrupted (a Firestore commit cannot be taken back half-way): it runs on, and whatever it
// writes later (its answer, its error) is dropped. A request with an Idempotency-Key keeps its claim until the
// handler settles, so the client's retry gets 409 IDEMPOTENCY_IN_PROGRESS meanwhile and then the stored answer.
export const DEADLINE_RETRY_AFTER_SEC = 5;

// 5 to 9 s: clients cut at one moment (a stalled dependency) must not all come back in the same second.
export function jitteredRetryAfter(): string {
  return String(DEADLINE_RETRY_AFTER_SEC + Math.floor(Math.random() * DEADLINE_RETRY_AFTER_SEC));
}

export function deadlineError(): AppError {
  return new AppError(
    503,
    'The request did not finish in time; it may still complete. Retry after Retry-After (with the same Idempotency-Key where the operation takes one)',
    undefined,
    {
      'Retry-After': jitteredRetryAfter(),
    },
  ).withCode('DEADLINE_EXCEEDED');
}

function overloadedError(): AppError {
  return new AppError(503, 'The server is overloaded; nothing was done. Retry after Retry-After', undefined, { 'Retry-After': jitteredRetryAfter() }).withCode(
    'OVERLOADED',
  );
}

/** Called by the route when its handler starts; the returned function when it settles (counts overdue handlers). */
export function handlerStarted(res: Response): () => void {
  return (res.locals.handlerStarted as (() => () => void) | undefined)?.() ?? noop;
}
const noop = () => undefined;

/** True once the deadline answered this request: anything written later is dropped. */
export function answeredAtDeadline(res: Response): boolean {
  return res.locals.deadlineExceeded === true;
}

// Upload routes stream their body while storing it: a slow link must not make every large file a 503, so they
// count against UPLOAD_DEADLINE_MS instead (from the same start).
export function useUploadDeadline(res: Response, ms: number): void {
  (res.locals.extendDeadline as ((ms: number) => void) | undefined)?.(ms);
}

function sendError(res: Response, err: AppError): void {
  const requestId = (res.locals.requestId as string | undefined) ?? 'unknown';
  const text = JSON.stringify(errorBody(err.statusCode, err.message, requestId, undefined, err.code));
  res.statusCode = err.statusCode;
  for (const [name, value] of Object.entries(err.headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/**
 * `overdueLimit` (DEADLINE_OVERDUE_LIMIT, 0: off): handlers of this instance still running after their 503 hold
 * memory, connections and database capacity; at that many, new requests are refused at once (503 OVERLOADED)
 * instead of piling on, until some settle. A handler counts for at most `countFor` from its request's start.
 */
export function requestDeadline(ms: number, overdueLimit = 0, countFor = API_TIMEOUT_SECONDS * 1000): RequestHandler {
  let overdue = 0;
  return (req, res, next) => {
    if (overdueLimit > 0 && overdue >= overdueLimit) {
      logger.warn('request refused: too many handlers running past their deadline', {
        requestId: res.locals.requestId,
        path: req.originalUrl.split('?')[0],
        overdue,
      });
      sendError(res, overloadedError());
      return;
    }
    const started = Date.now();
    let running = false;
    let counted = false;
    const uncount = () => {
      if (counted) overdue -= 1;
      counted = false;
    };
    const fire = () => {
      if (res.headersSent || res.writableEnded) return; // a stream already under way is not cut
      res.locals.deadlineExceeded = true;
      if (running) {
        counted = true;
        overdue += 1;
        // Past the function timeout the platform has cut the request: a handler hung for good must not count forever.
        setTimeout(uncount, Math.max(0, started + countFor - Date.now())).unref();
      }
      logger.warn('request deadline exceeded', {
        requestId: res.locals.requestId,
        method: req.method,
        path: req.originalUrl.split('?')[0],
        elapsedMs: Date.now() - started,
        overdue,
      });
      sendError(res, deadlineError());
    };
    let timer = setTimeout(fire, ms);
    res.locals.extendDeadline = (longer: number) => {
      if (res.locals.deadlineExceeded === true) return;
      clearTimeout(timer);
      timer = setTimeout(fire, Math.max(0, started + longer - Date.now()));
    };
    res.locals.handlerStarted = () => {
      running = true;
      return () => {
        running = false;
        uncount();
      };
    };
    res.once('close', () => clearTimeout(timer));
    next();
  };
}
