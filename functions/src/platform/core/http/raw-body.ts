import type { Request } from 'express';
import { Readable } from 'node:stream';

// The request body as a stream. On Cloud Functions the platform has already read it into req.rawBody.
export function requestBody(req: Request): Readable {
  const raw = (req as Request & { rawBody?: Buffer }).rawBody;
  return Buffer.isBuffer(raw) ? Readable.from([raw]) : req;
}
