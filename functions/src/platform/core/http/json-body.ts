import express, { type RequestHandler } from 'express';
import { PayloadTooLargeError } from '../errors/app-error';

type RequestWithRawBody = express.Request & { rawBody?: Buffer };

// JSON bodies up to a deliberate limit. Uploads are multipart and parsed by the media module.
// On Cloud Functions the platform has already read and parsed the body (req.rawBody): we keep
// its result and apply our own limit to the raw bytes.
export function jsonBody(limitBytes: number): RequestHandler {
  const parse = express.json({ limit: limitBytes, strict: true, type: ['application/json', 'application/*+json'] });
  return (req, res, next) => {
    const raw = (req as RequestWithRawBody).rawBody;
    // Only JSON bodies count against this limit; multipart uploads have their own per-file limits.
    if (Buffer.isBuffer(raw) && req.is(['application/json', 'application/*+json'])) {
      if (raw.length > limitBytes) {
        next(new PayloadTooLargeError(`Request body exceeds the limit of ${limitBytes} bytes`));
        return;
      }
      next();
      return;
    }
    parse(req, res, next);
  };
}
