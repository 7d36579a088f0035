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

// application/json or application/<x>+json, parameters aside: what the JSON body parser accepted. A string test,
// not req.is(): the body parser has parsed the header already, and a second full parse per request shows in P2.
const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json$/;
export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  const semicolon = header.indexOf(';');
  return JSON_MEDIA_TYPE.test((semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase());
}

export function hasBody(req: express.Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
