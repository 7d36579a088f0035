import type { Response } from 'express';
import { answeredAtDeadline } from './deadline';

// res.status().json() without Express's per-call work (charset parsing, type lookup, ETag and freshness, which
// this API does not use): the same status, headers and bytes, written once.
export function sendJson(res: Response, status: number, body: unknown): void {
  if (answeredAtDeadline(res)) return; // the 503 went out already: one answer per request
  res.statusCode = status;
  if (status === 204 || body === undefined) {
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}
