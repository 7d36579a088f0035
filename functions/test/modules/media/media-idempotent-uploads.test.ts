import { randomUUID } from 'node:crypto';
import { db as platformDb } from '../../../src/platform/core/firebase/firebase';
import { IDEMPOTENCY_COLLECTION, recordId } from '../../../src/platform/kits/idempotency/idempotency';
import http from 'node:http';
import path from 'node:path';
import { registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { API, requireEmulators } from '../../helpers/emulators';
import { audioFixture, storedFiles } from '../../helpers/media-storage';
import { MEDIA } from '../../../src/modules/media/media.model';

// Uploads with an Idempotency-Key: a retry after a lost answer returns the same items and stores nothing twice;
// the key is claimed before the bytes are read, so a retry while the first still streams is 409.
beforeAll(requireEmulators);

const fixture = audioFixture;

type Part = { data: Buffer; type: string; name?: string };
function upload(pathName: string, token: string, field: string, parts: Part[], key?: string) {
  const form = new FormData();
  for (const p of parts) form.append(field, new Blob([p.data], { type: p.type }), p.name ?? 'sound');
  return call('POST', pathName, { token, form, headers: key ? { 'idempotency-key': key } : {} });
}
const itemCount = async (token: string) => (await call('GET', '/media?limit=200', { token })).body.items.length as number;

let owner: Tokens;
beforeEach(async () => {
  owner = await registerVerified();
});

describe('POST /upload/single with an Idempotency-Key', () => {
  it("the same key twice: the same item, one stored object; the retry's own bytes are not stored", async () => {
    const key = randomUUID();
    const first = await upload('/upload/single', owner.accessToken, 'file', [{ data: fixture('tone.mp3'), type: 'audio/mpeg' }], key);
    expect(first.status).toBe(201);
    expect(storedFiles(owner.user.id)).toHaveLength(1);
    // Another file under the same key (another Content-Length) is refused, not answered with the first item.
    const otherFile = await upload('/upload/single', owner.accessToken, 'file', [{ data: fixture('tone.wav'), type: 'audio/wav' }], key);
    expect(otherFile.status).toBe(422);
    expect(otherFile.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    // The retry of the same file (a client rebuilding its form) replays: its bytes are neither read nor stored.
    const retry = await upload('/upload/single', owner.accessToken, 'file', [{ data: fixture('tone.mp3'), type: 'audio/mpeg' }], key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(storedFiles(owner.user.id)).toHaveLength(1);
    expect(await itemCount(owner.accessToken)).toBe(1);
    // An item named by its key is served like any other.
    const served = await fetch(first.body.publicUrl);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(fixture('tone.mp3'))).toBe(true);
  });

  it('another key (or none) makes a new item', async () => {
    const part = { data: fixture('tone.ogg'), type: 'audio/ogg' };
    const a = await upload('/upload/single', owner.accessToken, 'file', [part], randomUUID());
    const b = await upload('/upload/single', owner.accessToken, 'file', [part], randomUUID());
    const c = await upload('/upload/single', owner.accessToken, 'file', [part]);
    expect([a.status, b.status, c.status]).toEqual([201, 201, 201]);
    expect(new Set([a.body.id, b.body.id, c.body.id]).size).toBe(3);
    expect(storedFiles(owner.user.id)).toHaveLength(3);
  });

  it('a key is per caller: another user with the same key gets its own item', async () => {
    const key = randomUUID();
    const other = await registerVerified();
    const mine = await upload('/upload/single', owner.accessToken, 'file', [{ data: fixture('tone.mp3'), type: 'audio/mpeg' }], key);
    const theirs = await upload('/upload/single', other.accessToken, 'file', [{ data: fixture('tone.mp3'), type: 'audio/mpeg' }], key);
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(storedFiles(other.user.id)).toHaveLength(1);
  });

  it('a refused upload frees its key: the corrected retry stores its file once', async () => {
    const key = randomUUID();
    const refused = await upload('/upload/single', owner.accessToken, 'file', [{ data: fixture('tone.mp3'), type: 'audio/wav' }], key);
    expect(refused.status).toBe(415);
    const retry = await upload('/upload/single', owner.accessToken, 'file', [{ data: fixture('tone.mp3'), type: 'audio/mpeg' }], key);
    expect(retry.status).toBe(201);
    expect(storedFiles(owner.user.id)).toHaveLength(1);
  });

  it('the key is claimed before the bytes are read: a retry while the first still streams is 409, then gets its item', async () => {
    const key = randomUUID();
    const boundary = `----superapp${randomUUID()}`;
    const data = fixture('tone.mp3');
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.mp3"\r\nContent-Type: audio/mpeg\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const url = new URL(`${API}/upload/single`);
    // The first upload sends its head and half the file, then waits: the client's connection is slow.
    const first = new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: {
            authorization: `Bearer ${owner.accessToken}`,
            'idempotency-key': key,
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'content-length': head.length + data.length + tail.length,
          },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
        },
      );
      req.on('error', reject);
      req.write(Buffer.concat([head, data.subarray(0, data.length >> 1)]));
      setTimeout(() => req.end(Buffer.concat([data.subarray(data.length >> 1), tail])), 1_500);
    });
    await new Promise((resolve) => setTimeout(resolve, 700));
    // The retries resend the same request (same bytes, so the same Content-Length the key's hash holds).
    const resend = async () => {
      const res = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.accessToken}`, 'idempotency-key': key, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: Buffer.concat([head, data, tail]),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const during = await resend();
    expect(during.status).toBe(409);
    expect(during.body.code).toBe('IDEMPOTENCY_IN_PROGRESS');
    const done = await first;
    expect(done.status).toBe(201);
    const after = await resend();
    expect(after.status).toBe(201);
    expect(after.body.id).toBe(done.body.id);
    expect(storedFiles(owner.user.id)).toHaveLength(1);
    expect(await itemCount(owner.accessToken)).toBe(1);
  });

  it('a key reused after its 24 h lifetime never overwrites the earlier item (422), and stores nothing', async () => {
    const key = randomUUID();
    const data = fixture('tone.mp3');
    const first = await upload('/upload/single', owner.accessToken, 'file', [{ data, type: 'audio/mpeg' }], key);
    expect(first.status).toBe(201);
    // The key's record expired (its TTL) and the item is older than a day.
    await platformDb()
      .collection(MEDIA)
      .doc(first.body.id)
      .update({ createdAt: Date.now() - 25 * 3600_000 });
    await platformDb()
      .collection(IDEMPOTENCY_COLLECTION)
      .doc(recordId(owner.user.id, 'post /upload/single', key))
      .delete();
    const reused = await upload('/upload/single', owner.accessToken, 'file', [{ data: fixture('tone.wav'), type: 'audio/wav' }], key);
    expect(reused.status).toBe(422);
    expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(storedFiles(owner.user.id)).toEqual([path.basename(first.body.objectKey)]);
    const served = await fetch(first.body.publicUrl);
    expect(Buffer.from(await served.arrayBuffer()).equals(data)).toBe(true);
  });
});

describe('POST /upload/multiple with an Idempotency-Key', () => {
  it('the same key twice: the same items in order, each stored once', async () => {
    const parts = [
      { data: fixture('tone.mp3'), type: 'audio/mpeg' },
      { data: fixture('tone.ogg'), type: 'audio/ogg' },
      { data: fixture('tone.wav'), type: 'audio/wav' },
    ];
    const key = randomUUID();
    const first = await upload('/upload/multiple', owner.accessToken, 'files', parts, key);
    expect(first.status).toBe(201);
    const retry = await upload('/upload/multiple', owner.accessToken, 'files', parts, key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.map((i: { id: string }) => i.id)).toEqual(first.body.map((i: { id: string }) => i.id));
    expect(storedFiles(owner.user.id)).toHaveLength(3);
    const fresh = await upload('/upload/multiple', owner.accessToken, 'files', parts, randomUUID());
    expect(fresh.body.map((i: { id: string }) => i.id)).not.toEqual(first.body.map((i: { id: string }) => i.id));
    expect(storedFiles(owner.user.id)).toHaveLength(6);
  });
});

describe('POST /upload/presign/:id/complete with an Idempotency-Key', () => {
  it('the same key twice: the same READY item, one copy of the bytes', async () => {
    const data = fixture('tone.ogg');
    const presigned = await call('POST', '/upload/presign', { token: owner.accessToken, body: { contentType: 'audio/ogg' } });
    expect((await fetch(presigned.body.upload.url, { method: 'PUT', headers: presigned.body.upload.headers, body: data })).status).toBe(200);
    const id = presigned.body.media.id as string;
    const key = randomUUID();
    const first = await call('POST', `/upload/presign/${id}/complete`, { token: owner.accessToken, headers: { 'idempotency-key': key } });
    expect(first.status).toBe(200);
    const retry = await call('POST', `/upload/presign/${id}/complete`, { token: owner.accessToken, headers: { 'idempotency-key': key } });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(storedFiles(owner.user.id)).toEqual([path.basename(first.body.objectKey)]);
    expect(storedFiles(owner.user.id, 'uploads')).toEqual([]);
  });
});
