import { randomBytes, randomUUID } from 'node:crypto';
import { API } from './emulators';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are whatever the API answers; tests narrow them
export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
  ms: number;
}

// Each test file (or test) calls from its own documentation-range IP, so per-IP rate limits of one
// test never spill into another; rate-limit tests hammer one IP on purpose.
export function testIp(): string {
  const b = randomBytes(2);
  return `198.18.${b[0]}.${b[1]}`;
}

/**
 * For a test that counts an IP's requests against a limit: drawn from 198.19.0.0/16, where testIp() never lands, so
 * the thousands of random testIp() calls of a run cannot share its bucket by chance.
 */
export function countedIp(): string {
  const b = randomBytes(2);
  return `198.19.${b[0]}.${b[1]}`;
}

export async function call<T = any>( // eslint-disable-line @typescript-eslint/no-explicit-any
  method: string,
  path: string,
  opts: { body?: unknown; form?: FormData; token?: string; ip?: string; headers?: Record<string, string>; api?: string } = {},
): Promise<ApiResponse<T>> {
  // The test client is an English app: accounts it registers get English texts (fetch alone sends `*`, which
  // leaves the server's default, vi). Tests of languages send their own Accept-Language.
  const headers: Record<string, string> = { 'x-forwarded-for': opts.ip ?? testIp(), 'accept-language': 'en', ...(opts.headers ?? {}) };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  // A form goes as multipart (fetch writes the boundary), anything else as JSON.
  const payload = opts.form ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  const started = performance.now();
  const res = await fetch(`${opts.api ?? API}${path}`, { method, headers, body: payload });
  const text = await res.text();
  const ms = performance.now() - started;
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body: body as T, headers: res.headers, ms };
}

export const uniqueEmail = (tag: string) => `${tag}-${randomUUID().slice(0, 8)}@example.com`;
export const PASSWORD = 'correct horse battery';

/**
 * Sends `attempt` again while `busy` says its answer asks for a later retry (the same Idempotency-Key inside
 * `attempt`, as apps retry), after the answer's Retry-After (1 s without one) and a little jitter; at most `times`
 * retries, then the last answer.
 */
export async function retryWhile(attempt: () => Promise<ApiResponse>, busy: (res: ApiResponse) => boolean, times = 10): Promise<ApiResponse> {
  for (let retries = 0; ; retries++) {
    const res = await attempt();
    if (!busy(res) || retries === times) return res;
    const askedMs = Number(res.headers.get('retry-after') ?? 1) * 1000;
    await new Promise((resolve) => setTimeout(resolve, askedMs * (1 + Math.random() / 2)));
  }
}
