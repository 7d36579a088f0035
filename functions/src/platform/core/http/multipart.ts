import type { Request } from 'express';
import { PassThrough, type Readable } from 'node:stream';
import { BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../errors/app-error';

export interface UploadedFile {
  field: string;
  filename: string;
  declaredType: string;
  data: Buffer;
}

/** One file part as it arrives: its bytes stream through `stream` (which errors with 413 past the limit). */
export interface IncomingFile {
  field: string;
  filename: string;
  declaredType: string;
  stream: Readable;
}

export interface MultipartLimits {
  fileFields: readonly string[];
  maxFiles: number;
  maxFileBytes: number;
  maxFieldBytes?: number;
}

/**
 * Streams a multipart body through busboy with hard limits and hands each file to `sink` as it arrives
 * (e.g. straight into storage), so no file needs to sit in memory whole. A file past the size limit
 * errors its stream with 413 and the rest of it is discarded. Settles once the body is read *and* every
 * sink has finished, so a caller that cleans up after a failure sees everything that was stored. On
 * Cloud Functions the platform has already read the body into req.rawBody, which is fed in one piece.
 */
export function streamMultipart<T>(
  req: Request,
  limits: MultipartLimits,
  sink: (file: IncomingFile) => Promise<T>,
): Promise<{ fields: Record<string, string>; files: T[] }> {
  if (!req.is('multipart/form-data')) {
    return Promise.reject(new UnsupportedMediaTypeError('Content-Type must be multipart/form-data'));
  }
  const busboy = require('busboy') as typeof import('busboy');
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    const sinks: Array<Promise<T>> = [];
    let failure: Error | undefined;
    const fail = (err: Error) => {
      failure ??= err;
    };
    let parser: ReturnType<typeof busboy>;
    try {
      parser = busboy({
        headers: req.headers,
        // busboy signals the limit on *reaching* fileSize: one byte more, so a file of exactly maxFileBytes passes.
        limits: {
          files: limits.maxFiles,
          fileSize: limits.maxFileBytes + 1,
          fieldSize: limits.maxFieldBytes ?? 10_000,
          fields: 50,
          parts: limits.maxFiles + 50,
        },
      });
    } catch (err) {
      reject(new BadRequestError(`Malformed multipart body: ${(err as Error).message}`));
      return;
    }
    parser.on('file', (field, stream, info) => {
      if (!limits.fileFields.includes(field) || failure) {
        if (!failure) fail(new BadRequestError(`Unexpected file field "${field}"; expected ${limits.fileFields.map((f) => `"${f}"`).join(' or ')}`));
        stream.resume();
        return;
      }
      // The sink reads a pass-through: busboy's own stream is always drained, even when the sink stops.
      const through = new PassThrough();
      stream.on('limit', () => {
        const tooLarge = new PayloadTooLargeError(`File "${info.filename}" exceeds ${limits.maxFileBytes} bytes`);
        fail(tooLarge);
        through.destroy(tooLarge);
      });
      stream.on('error', (err: Error) => through.destroy(err));
      stream.pipe(through);
      const done = sink({ field, filename: info.filename ?? 'file', declaredType: info.mimeType, stream: through });
      done.catch((err: Error) => {
        fail(err);
        through.destroy();
        stream.unpipe(through);
        stream.resume();
      });
      sinks.push(done);
    });
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(new BadRequestError(`Field "${name}" is too long`));
      fields[name] = value;
    });
    parser.on('filesLimit', () => fail(new BadRequestError(`At most ${limits.maxFiles} file(s) per request`)));
    parser.on('error', (err: Error) => fail(new BadRequestError(`Malformed multipart body: ${err.message}`)));
    parser.on('close', () => {
      void Promise.allSettled(sinks).then((settled) => {
        if (failure) return reject(failure);
        resolve({ fields, files: settled.map((s) => (s as PromiseFulfilledResult<T>).value) });
      });
    });
    const raw = (req as Request & { rawBody?: Buffer }).rawBody;
    if (Buffer.isBuffer(raw)) parser.end(raw);
    else req.pipe(parser);
  });
}

/** Small files (papers): each file collected into memory, within the limit. */
export function parseMultipart(req: Request, limits: MultipartLimits): Promise<{ fields: Record<string, string>; files: UploadedFile[] }> {
  return streamMultipart(req, limits, async (file) => {
    const chunks: Buffer[] = [];
    for await (const chunk of file.stream) chunks.push(chunk as Buffer);
    return { field: file.field, filename: file.filename, declaredType: file.declaredType, data: Buffer.concat(chunks) };
  });
}
