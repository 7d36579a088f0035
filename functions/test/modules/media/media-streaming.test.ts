import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { buildApp } from '../../../src/app';
import { createJwtAccessTokenVerifier } from '../../../src/platform/core/auth/access-token';
import { createRateLimiter, memoryRateLimitStore } from '../../../src/platform/core/ratelimit/rate-limit';
import { testConfig } from '../../helpers/config';
import { requireEmulators } from '../../helpers/emulators';
import { listen } from '../../helpers/http';

// Uploads through the app in-process (as a plain server or Cloud Run runs it): request bodies arrive as
// streams there, so the size limits are enforced while the bytes flow, with no Content-Length to trust.
beforeAll(requireEmulators);

const root = path.join(os.tmpdir(), `superapp-streaming-${randomUUID()}`);
const config = testConfig({ STORAGE_DRIVER: 'local', STORAGE_LOCAL_DIR: root, MEDIA_MAX_FILE_BYTES: String(2 * 1024 * 1024) });
const MAX = 2 * 1024 * 1024;
const { app } = buildApp({
  config,
  verifyAccessToken: createJwtAccessTokenVerifier(config.JWT_SECRET),
  rateLimiter: createRateLimiter(memoryRateLimitStore()),
});
const ownerId = `stream-${randomUUID().slice(0, 8)}`;
const token = jwt.sign({ sub: ownerId, jti: randomUUID(), sid: 's', typ: 'access', roles: ['USER'] }, config.JWT_SECRET, {
  algorithm: 'HS256',
  expiresIn: 600,
});
const mp3 = fs.readFileSync(path.join(__dirname, '..', '..', 'fixtures', 'audio', 'tone.mp3'));

let server: { url: string; close(): Promise<void> };
beforeAll(async () => {
  server = await listen(app);
});
afterAll(async () => {
  await server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

// A body of `bytes` sent in 256 KB chunks with no Content-Length (chunked transfer).
function chunkedBody(prefix: Buffer, bytes: number) {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(new Uint8Array(prefix));
      for (let sent = prefix.length; sent < bytes; sent += 256 * 1024) controller.enqueue(new Uint8Array(Math.min(256 * 1024, bytes - sent)));
      controller.close();
    },
  });
}

const files = (area: string) => {
  const dir = path.join(root, area, ownerId);
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
};

describe('the default 15 MB limit', () => {
  it('refuses 15 MB + 1 byte with 413 and stores nothing', async () => {
    const defaults = testConfig({ STORAGE_DRIVER: 'local', STORAGE_LOCAL_DIR: root });
    expect(defaults.MEDIA_MAX_FILE_BYTES).toBe(15 * 1024 * 1024);
    const app15 = buildApp({
      config: defaults,
      verifyAccessToken: createJwtAccessTokenVerifier(defaults.JWT_SECRET),
      rateLimiter: createRateLimiter(memoryRateLimitStore()),
    }).app;
    const server15 = await listen(app15);
    try {
      const send = async (size: number) => {
        const form = new FormData();
        form.append('file', new Blob([Buffer.concat([mp3, Buffer.alloc(size - mp3.length)])], { type: 'audio/mpeg' }), 'big.mp3');
        return fetch(`${server15.url}/api/v1/upload/single`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
      };
      const before = files('media').length;
      expect((await send(15 * 1024 * 1024 + 1)).status).toBe(413);
      expect(files('media').filter((f) => !f.endsWith('.meta.json'))).toHaveLength(before);
      // Exactly 15 MB passes the limit: unit test multipart-limits (the type sniffer, ESM-only, does not load under jest).
    } finally {
      await server15.close();
    }
  });
});

describe('streamed uploads are bounded while they stream', () => {
  it('a presigned PUT over the limit is 413, announced or cut while streaming without a length, and no object is left', async () => {
    const presigned = await fetch(`${server.url}/api/v1/upload/presign`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ contentType: 'audio/mpeg' }),
    }).then((r) => r.json() as Promise<{ upload: { url: string; headers: Record<string, string> }; media: { id: string } }>);
    const url = presigned.upload.url.replace(config.API_PUBLIC_URL, server.url);
    // Announced too large: refused on the header, before a byte is read.
    const announced = await fetch(url, { method: 'PUT', headers: presigned.upload.headers, body: Buffer.alloc(MAX + 1, 1) });
    expect(announced.status).toBe(413);
    const put = await fetch(url, { method: 'PUT', headers: presigned.upload.headers, body: chunkedBody(mp3, MAX + 300 * 1024), duplex: 'half' } as RequestInit);
    expect(put.status).toBe(413);
    expect(files('uploads')).toEqual([]);
    const fits = await fetch(url, { method: 'PUT', headers: presigned.upload.headers, body: chunkedBody(mp3, 512 * 1024), duplex: 'half' } as RequestInit);
    expect(fits.status).toBe(200);
    expect(await fits.json()).toEqual({ received: true, sizeBytes: 512 * 1024 });
  });

  it('a multipart file past the limit is cut while streaming: 413 and nothing stored, the other files included', async () => {
    const boundary = 'sweepboundary';
    const part = (name: string, head: Buffer) =>
      Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: audio/mpeg\r\n\r\n`),
        head,
      ]);
    // Written piece by piece with no Content-Length, as a phone on a slow link would.
    const res = await new Promise<{ status: number }>((resolve, reject) => {
      const req = http.request(
        `${server.url}/api/v1/upload/multiple`,
        { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` } },
        (response) => {
          response.resume();
          response.on('end', () => resolve({ status: response.statusCode ?? 0 }));
        },
      );
      req.on('error', reject);
      req.write(Buffer.concat([part('ok.mp3', mp3), Buffer.from('\r\n')]));
      req.write(part('big.mp3', mp3));
      for (let sent = 0; sent < MAX + 256 * 1024; sent += 256 * 1024) req.write(Buffer.alloc(256 * 1024));
      req.end(`\r\n--${boundary}--\r\n`);
    });
    expect(res.status).toBe(413);
    expect(files('media').filter((f) => !f.endsWith('.tmp'))).toEqual([]);
  });
});
