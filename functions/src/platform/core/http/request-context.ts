import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { logger, withLogFields } from '../logging/logger';
import { clientIp, type ClientIpResolver } from './client-ip';

/** A request id safe to log and to hand on (ours, a client's, or one a task carries). */
export const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

// Every request gets an id we mint (answered in X-Request-Id): a client must not choose the id its lines, and the
// tasks it enqueues, are logged under (or make them collide with another request's). A safe X-Request-Id the client
// sent is kept as `clientRequestId`, to find its requests by. Everything the request runs (guards, handler,
// services, repositories) logs with both.
// `clientIp`: how the caller's address is derived (CLIENT_IP_SOURCE); clientIp(req) derives it on first use.
export function requestContext(options: { logRequests: boolean; clientIp?: ClientIpResolver }): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('x-request-id');
    const clientRequestId = incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : undefined;
    const requestId = randomUUID();
    const ids = clientRequestId === undefined ? { requestId } : { requestId, clientRequestId };
    res.locals.requestId = requestId;
    if (options.clientIp) res.locals.resolveClientIp = options.clientIp;
    res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const status = res.statusCode;
      // Successful requests are in the platform's request log already; log them only on demand.
      if (status < 400 && !options.logRequests) return;
      const fields = {
        ...ids,
        method: req.method,
        path: req.originalUrl.split('?')[0],
        status,
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
        ip: clientIp(req),
      };
      if (status >= 500) logger.error('request failed', fields);
      else logger.info('request', fields);
    });
    withLogFields(ids, next);
  };
}
