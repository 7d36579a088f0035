import type { Request } from 'express';
import { PayloadTooLargeError } from '../errors/app-error';

// The raw request bytes, at most `limit` (413 as soon as the stream passes it). On Cloud Functions
// the platform has already buffered them in req.rawBody.
export function readRawBody(req: Request, limit: number): Promise<Buffer> {
  const raw = (req as Request & { rawBody?: Buffer }).rawBody;
  if (Buffer.isBuffer(raw)) {
    return raw.length > limit ? Promise.reject(new PayloadTooLargeError(`Body exceeds ${limit} bytes`)) : Promise.resolve(raw);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.destroy();
        reject(new PayloadTooLargeError(`Body exceeds ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
