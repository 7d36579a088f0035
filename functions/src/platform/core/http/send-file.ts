import type { Response } from 'express';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { answeredAtDeadline } from './deadline';

/**
 * Streams a file as the whole response. When the response was already answered (the deadline's 503 went out while
 * the file was looked up) the file stream is closed unread: nothing else would ever end it (an open file handle).
 */
export async function sendFileStream(
  res: Response,
  file: { stream: Readable; contentType: string; size: number },
  headers: Record<string, string> = {},
): Promise<void> {
  if (answeredAtDeadline(res) || res.headersSent) {
    file.stream.destroy();
    return;
  }
  res.status(200).set({ ...headers, 'content-type': file.contentType, 'content-length': String(file.size) });
  await pipeline(file.stream, res);
}
