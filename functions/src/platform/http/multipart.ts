import type { Request } from 'express';
import { BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../errors/app-error';

export interface UploadedFile {
  field: string;
  filename: string;
  declaredType: string;
  data: Buffer;
}

export interface MultipartLimits {
  fileFields: readonly string[];
  maxFiles: number;
  maxFileBytes: number;
  maxFieldBytes?: number;
}

// Streams a multipart body through busboy with hard limits: a file over the limit is cut off (413)
// without buffering the rest. On Cloud Functions the platform has already read the body into
// req.rawBody, which is then fed to busboy in one piece.
export function parseMultipart(req: Request, limits: MultipartLimits): Promise<{ fields: Record<string, string>; files: UploadedFile[] }> {
  if (!req.is('multipart/form-data')) {
    return Promise.reject(new UnsupportedMediaTypeError('Content-Type must be multipart/form-data'));
  }
  const busboy = require('busboy') as typeof import('busboy');
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    const files: UploadedFile[] = [];
    let failure: Error | undefined;
    const fail = (err: Error) => {
      failure ??= err;
    };
    let parser: ReturnType<typeof busboy>;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { files: limits.maxFiles, fileSize: limits.maxFileBytes, fieldSize: limits.maxFieldBytes ?? 10_000, fields: 50, parts: limits.maxFiles + 50 },
      });
    } catch (err) {
      reject(new BadRequestError(`Malformed multipart body: ${(err as Error).message}`));
      return;
    }
    parser.on('file', (field, stream, info) => {
      if (!limits.fileFields.includes(field)) {
        fail(new BadRequestError(`Unexpected file field "${field}"; expected ${limits.fileFields.map((f) => `"${f}"`).join(' or ')}`));
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(new PayloadTooLargeError(`File "${info.filename}" exceeds ${limits.maxFileBytes} bytes`)));
      stream.on('end', () => {
        if (!failure) files.push({ field, filename: info.filename ?? 'file', declaredType: info.mimeType, data: Buffer.concat(chunks) });
      });
    });
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(new BadRequestError(`Field "${name}" is too long`));
      fields[name] = value;
    });
    parser.on('filesLimit', () => fail(new BadRequestError(`At most ${limits.maxFiles} file(s) per request`)));
    parser.on('error', (err: Error) => fail(new BadRequestError(`Malformed multipart body: ${err.message}`)));
    parser.on('close', () => (failure ? reject(failure) : resolve({ fields, files })));
    const raw = (req as Request & { rawBody?: Buffer }).rawBody;
    if (Buffer.isBuffer(raw)) parser.end(raw);
    else req.pipe(parser);
  });
}
