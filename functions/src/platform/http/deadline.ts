import type { RequestHandler, Response } from 'express';
import { AppError } from '../errors/app-error';
import { errorBody } from '../errors/error-body';
import { logger } from '../logging/logger';

// A stalled dependency (the database paused, a gateway hanging) must not hold a request until the client gives
// up without an answer: at REQUEST_DEADLINE_MS the API answers 503 DEADLINE_EXCEEDED with Retry-After, once.
// The handler is not interrupted (a Firestore commit cannot be taken back half-way): it runs on, and whatever it
// writes later (its answer, its error) is dropped. A request with an Idempotency-Key keeps its claim until the
// handler settles, so the client's retry gets 409 IDEMPOTENCY_IN_PROGRESS meanwhile and then the stored answer.
export const DEADLINE_RETRY_AFTER_SEC = 5;

export function deadlineError(): AppError {
  return new AppError(503, 'The request did not finish in time; it may still complete. Retry after Retry-After (with the same Idempotency-Key where the operation takes one)', undefined, {
    'Retry-After': String(DEADLINE_RETRY_AFTER_SEC),
  }).withCode('DEADLINE_EXCEEDED');
}

/** True once the deadline answered this request: anything written later is dropped. */
export function answeredAtDeadline(res: Response): boolean {
  return res.locals.deadlineExceeded === true;
}

// Upload routes stream their body while storing it: a slow link must not make every large file a 503, so they
// count against UPLOAD_DEADLINE_MS instead (from the same start).
export function useUploadDeadline(res: Response, ms: number): void {
  (res.locals.extendDeadline as ((ms: number) => void) | undefined)?.(ms);
}

export function requestDeadline(ms: number): RequestHandler {
  return (req, res, next) => {
    const started = Date.now();
    const fire = () => {
      if (res.headersSent || res.writableEnded) return; // a stream already under way is not cut
      res.locals.deadlineExceeded = true;
      const err = deadlineError();
      const requestId = (res.locals.requestId as string | undefined) ?? 'unknown';
      logger.warn('request deadline exceeded', { requestId, method: req.method, path: req.originalUrl.split('?')[0], elapsedMs: Date.now() - started });
      const text = JSON.stringify(errorBody(err.statusCode, err.message, requestId, undefined, err.code));
      res.statusCode = err.statusCode;
      for (const [name, value] of Object.entries(err.headers)) res.setHeader(name, value);
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.setHeader('Content-Length', Buffer.byteLength(text));
      res.end(text);
    };
    let timer = setTimeout(fire, ms);
    res.locals.extendDeadline = (longer: number) => {
      if (res.locals.deadlineExceeded === true) return;
      clearTimeout(timer);
      timer = setTimeout(fire, Math.max(0, started + longer - Date.now()));
    };
    res.once('close', () => clearTimeout(timer));
    next();
  };
}
