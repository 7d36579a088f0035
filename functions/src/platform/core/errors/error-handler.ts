import type { ErrorRequestHandler, RequestHandler } from 'express';
import { isTransactionExpired } from '../firebase/firebase';
import { AppError, contendedError, NotFoundError } from './app-error';
import { errorBody } from './error-body';
import { logger } from '../logging/logger';
import { sourceMappedStack } from '../logging/stack';
import { answeredAtDeadline } from '../http/deadline';

interface BodyParserError extends Error {
  type?: string;
  status?: number;
  limit?: number;
}

// Errors from body-parser carry a `type`; map them to what the client did wrong.
function fromBodyParser(err: BodyParserError): AppError | undefined {
  switch (err.type) {
    case 'entity.parse.failed':
      return new AppError(400, 'Malformed JSON in request body').withCode('MALFORMED_JSON');
    case 'entity.too.large':
      return new AppError(413, `Request body exceeds the limit of ${err.limit ?? 'the configured'} bytes`);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError(415, err.message);
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return new AppError(400, 'The request body could not be read');
    default:
      return undefined;
  }
}

// gRPC ABORTED: Firestore gave up on a transaction after its own retries (lock contention on a hot record).
const FIRESTORE_ABORTED = 10;

// A transaction that outlived its lock waits is contention too (isTransactionExpired).
// Anything else (including a response that fails its own schema) is a server fault: 500.
export function toAppError(err: unknown, req?: { method: string; originalUrl: string }): AppError | undefined {
  if (err instanceof AppError) return err;
  // Express could not percent-decode a path parameter (e.g. %E9, or half a surrogate pair): the path
  // names nothing that can exist, as for an id that fails validation.
  if (err instanceof URIError && req) return new NotFoundError(`Cannot ${req.method} ${req.originalUrl.split('?')[0]}: no such resource`);
  if (err instanceof Error && typeof (err as BodyParserError).type === 'string') return fromBodyParser(err as BodyParserError);
  // Nothing was written, and a retry a moment later normally succeeds: say so instead of a 500.
  if (err instanceof Error && (isTransactionExpired(err) || (err as { code?: unknown }).code === FIRESTORE_ABORTED)) {
    return contendedError();
  }
  return undefined;
}

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new NotFoundError(`Cannot ${req.method} ${req.originalUrl.split('?')[0]}`));
};

export const errorHandler: ErrorRequestHandler = (err, req, res, next) => {
  if (answeredAtDeadline(res)) {
    // The deadline answered already; the handler's late failure only goes to the log.
    logger.warn('request failed after its deadline answer', { requestId: res.locals.requestId, path: req.originalUrl.split('?')[0], err: describe(err) });
    return;
  }
  if (res.headersSent) {
    next(err);
    return;
  }
  const requestId = res.locals.requestId ?? 'unknown';
  const known = toAppError(err, req);
  if (!known) {
    // Unknown failures: full detail to the log, nothing internal to the client.
    logger.error('unhandled error', { requestId, method: req.method, path: req.originalUrl, err: describe(err) });
    res.status(500).json(errorBody(500, 'Internal server error', requestId));
    return;
  }
  for (const [name, value] of Object.entries(known.headers)) res.setHeader(name, value);
  res.status(known.statusCode).json(errorBody(known.statusCode, known.message, requestId, known.details, known.code));
};

function describe(err: unknown): Record<string, unknown> {
  if (err instanceof Error) return { name: err.name, message: err.message, stack: sourceMappedStack(err.stack) };
  return { value: String(err) };
}
