import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { db as platformDb } from '../../../src/platform/core/firebase/firebase';
import { registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { API, requireEmulators } from '../../helpers/emulators';
import { FIXTURES } from '../../helpers/papers';
import { audioFixture, storageRoot, storedFiles } from '../../helpers/media-storage';
import { MEDIA } from '../../../src/modules/media/media.model';
import { USERS } from '../../../src/modules/users/users.model';

beforeAll(requireEmulators);

const fixture = audioFixture;

type Part = { data: Buffer; type: string; name?: string };
async function upload(pathName: string, token: string | undefined, field: string, parts: Part[]) {
  const form = new FormData();
  for (const p of parts) form.append(field, new Blob([p.data], { type: p.type }), p.name ?? 'sound');
  return call('POST', pathName, { token, form });
}

let owner: Tokens;
beforeAll(async () => {
  owner = await registerVerified();
});

async function nothingStoredBy(userId: string, token: string, act: () => Promise<{ status: number }>, status: number) {
  const before = { files: storedFiles(userId).length, items: (await call('GET', '/media?limit=200', { token })).body.items.length };
  expect((await act()).status).toBe(status);
  expect(storedFiles(userId).length).toBe(before.files);
  expect((await call('GET', '/media?limit=200', { token })).body.items.length).toBe(before.items);
}

describe('POST /upload/single', () => {
  it.each([
    ['audio/mpeg', 'tone.mp3'],
    ['audio/wav', 'tone.wav'],
    ['audio/x-wav', 'tone.wav'],
    ['audio/ogg', 'tone.ogg'],
    ['audio/mp4', 'tone.m4a'],
    ['audio/aac', 'tone.aac'],
    ['audio/webm', 'tone.webm'],
  ])('accepts %s: one READY AUDIO item with exactly the spec fields, served back byte for byte', async (type, file) => {
    const data = fixture(file);
    const res = await upload('/upload/single', owner.accessToken, 'file', [{ data, type, name: file }]);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['id', 'kind', 'mimeType', 'objectKey', 'publicUrl', 'sizeBytes', 'status']);
    expect(res.body).toMatchObject({ mimeType: type, sizeBytes: data.length, kind: 'AUDIO', status: 'READY' });
    const served = await fetch(res.body.publicUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe(type);
    expect(Buffer.from(await served.arrayBuffer()).equals(data)).toBe(true);
    // The item is stored with its owner.
    const doc = await platformDb().collection(MEDIA).doc(res.body.id).get();
    expect(doc.get('ownerId')).toBe(owner.user.id);
  });

  it.each([
    ['a PNG declared audio/mpeg', { data: FIXTURES.png, type: 'audio/mpeg' }],
    ['an MP3 declared audio/wav', { data: fixture('tone.mp3'), type: 'audio/wav' }],
    ['text declared audio/ogg', { data: FIXTURES.text, type: 'audio/ogg' }],
    ['a WAV declared audio/flac (not accepted)', { data: fixture('tone.wav'), type: 'audio/flac' }],
    ['a PDF declared application/pdf', { data: FIXTURES.pdf, type: 'application/pdf' }],
  ])('refuses %s with 415 and stores nothing', async (_label, part) => {
    await nothingStoredBy(owner.user.id, owner.accessToken, () => upload('/upload/single', owner.accessToken, 'file', [part]), 415);
  });

  // 15 MB + 1 byte → 413: media-streaming.test.ts, in-process (the Functions emulator takes ~30 s to proxy 15 MB).

  it('400 without a file or with another field name; 415 for a JSON body', async () => {
    const form = new FormData();
    form.append('note', 'no file here');
    const empty = await fetch(`${API}/upload/single`, { method: 'POST', headers: { authorization: `Bearer ${owner.accessToken}` }, body: form });
    expect(empty.status).toBe(400);
    await nothingStoredBy(
      owner.user.id,
      owner.accessToken,
      () => upload('/upload/single', owner.accessToken, 'audio', [{ data: fixture('tone.mp3'), type: 'audio/mpeg' }]),
      400,
    );
    expect((await call('POST', '/upload/single', { token: owner.accessToken, body: { file: 'x' } })).status).toBe(415);
  });

  it('401 anonymous; 403 for an account without USER, ADMIN or PARTNER_* roles', async () => {
    expect((await upload('/upload/single', undefined, 'file', [{ data: fixture('tone.mp3'), type: 'audio/mpeg' }])).status).toBe(401);
    const driverOnly = await registerVerified();
    // Only data can make such an account (every flow keeps USER): roles are read live on each request.
    await platformDb()
      .collection(USERS)
      .doc(driverOnly.user.id)
      .update({ roles: ['DRIVER'] });
    expect((await upload('/upload/single', driverOnly.accessToken, 'file', [{ data: fixture('tone.mp3'), type: 'audio/mpeg' }])).status).toBe(403);
  });
});

describe('POST /upload/multiple', () => {
  const seven = () =>
    ['tone.mp3', 'tone.wav', 'tone.ogg', 'tone.m4a', 'tone.aac', 'tone.webm'].map((f, i) => ({
      data: fixture(f),
      type: ['audio/mpeg', 'audio/wav', 'audio/ogg', 'audio/mp4', 'audio/aac', 'audio/webm'][i],
      name: f,
    }));

  it('accepts up to 10 files and answers one item per file, in order', async () => {
    const parts = [...seven(), ...seven().slice(0, 4)];
    const res = await upload('/upload/multiple', owner.accessToken, 'files', parts);
    expect(res.status).toBe(201);
    expect(res.body).toHaveLength(10);
    expect(res.body.map((i: { mimeType: string }) => i.mimeType)).toEqual(parts.map((p) => p.type));
  });

  it('refuses 11 files with 400 and stores nothing', async () => {
    const parts = [...seven(), ...seven().slice(0, 5)];
    await nothingStoredBy(owner.user.id, owner.accessToken, () => upload('/upload/multiple', owner.accessToken, 'files', parts), 400);
  });

  it('one disguised file refuses the whole request (415) and stores nothing', async () => {
    const parts = [...seven().slice(0, 3), { data: FIXTURES.png, type: 'audio/mpeg', name: 'cover.png' }];
    await nothingStoredBy(owner.user.id, owner.accessToken, () => upload('/upload/multiple', owner.accessToken, 'files', parts), 415);
  });

  it('the field must be `files` (400)', async () => {
    expect((await upload('/upload/multiple', owner.accessToken, 'file', seven().slice(0, 2))).status).toBe(400);
  });
});

describe('presigned upload (local storage adapter)', () => {
  it('presign → PUT the bytes → complete → READY, and publicUrl serves them', async () => {
    const data = fixture('tone.ogg');
    const presigned = await call('POST', '/upload/presign', { token: owner.accessToken, body: { contentType: 'audio/ogg', filename: 'tone.ogg' } });
    expect(presigned.status).toBe(201);
    expect(presigned.body.media).toMatchObject({ status: 'PENDING', mimeType: 'audio/ogg', kind: 'AUDIO' });
    expect(presigned.body.upload).toMatchObject({ method: 'PUT', headers: { 'content-type': 'audio/ogg' } });
    const early = await call('POST', `/upload/presign/${presigned.body.media.id}/complete`, { token: owner.accessToken });
    expect(early.status).toBe(409);

    const put = await fetch(presigned.body.upload.url, { method: 'PUT', headers: presigned.body.upload.headers, body: data });
    expect(put.status).toBe(200);
    const wrongToken = presigned.body.upload.url.replace(/token=[^&]+/, 'token=forged');
    expect((await fetch(wrongToken, { method: 'PUT', headers: presigned.body.upload.headers, body: data })).status).toBe(404);

    const other = await registerVerified();
    expect((await call('POST', `/upload/presign/${presigned.body.media.id}/complete`, { token: other.accessToken })).status).toBe(404);
    const done = await call('POST', `/upload/presign/${presigned.body.media.id}/complete`, { token: owner.accessToken });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ id: presigned.body.media.id, status: 'READY', sizeBytes: data.length });
    const served = await fetch(done.body.publicUrl);
    expect(Buffer.from(await served.arrayBuffer()).equals(data)).toBe(true);
    // Completing again is harmless; the upload URL is spent (its token no longer opens anything).
    expect((await call('POST', `/upload/presign/${presigned.body.media.id}/complete`, { token: owner.accessToken })).body.status).toBe('READY');
    expect((await fetch(presigned.body.upload.url, { method: 'PUT', headers: presigned.body.upload.headers, body: data })).status).toBe(404);
  });

  it('refuses non-audio content types (415) and a Content-Type other than presigned on the PUT (415)', async () => {
    for (const contentType of ['image/png', 'application/octet-stream', 'audio/flac']) {
      expect((await call('POST', '/upload/presign', { token: owner.accessToken, body: { contentType } })).status).toBe(415);
    }
    expect((await call('POST', '/upload/presign', { token: owner.accessToken, body: {} })).status).toBe(400);
    const presigned = await call('POST', '/upload/presign', { token: owner.accessToken, body: { contentType: 'audio/mpeg' } });
    const put = await fetch(presigned.body.upload.url, { method: 'PUT', headers: { 'content-type': 'audio/wav' }, body: fixture('tone.wav') });
    expect(put.status).toBe(415);
  });

  it('disguised bytes are refused on completion: 415, item FAILED, objects deleted', async () => {
    const presigned = await call('POST', '/upload/presign', { token: owner.accessToken, body: { contentType: 'audio/mpeg' } });
    await fetch(presigned.body.upload.url, { method: 'PUT', headers: presigned.body.upload.headers, body: FIXTURES.png });
    const id = presigned.body.media.id as string;
    expect(storedFiles(owner.user.id, 'uploads')).toContain(id);
    const done = await call('POST', `/upload/presign/${id}/complete`, { token: owner.accessToken });
    expect(done.status).toBe(415);
    expect(storedFiles(owner.user.id, 'uploads')).not.toContain(id);
    expect(storedFiles(owner.user.id)).not.toContain(path.basename(presigned.body.media.objectKey));
    expect((await call('GET', `/media/${id}`, { token: owner.accessToken })).body.status).toBe('FAILED');
  });

  it('complete reads the size from metadata first: an oversized object (written past the API) is refused unread, 413', async () => {
    const presigned = await call('POST', '/upload/presign', { token: owner.accessToken, body: { contentType: 'audio/mpeg' } });
    const id = presigned.body.media.id as string;
    // As if the bytes had reached storage some other way (a signed URL without a size range).
    const target = path.join(storageRoot, 'uploads', owner.user.id, id);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, Buffer.alloc(presigned.body.upload.maxBytes + 1, 1));
    fs.writeFileSync(`${target}.meta.json`, JSON.stringify({ contentType: 'audio/mpeg' }));
    const done = await call('POST', `/upload/presign/${id}/complete`, { token: owner.accessToken });
    expect(done.status).toBe(413);
    expect(fs.existsSync(target)).toBe(false);
    expect((await call('GET', `/media/${id}`, { token: owner.accessToken })).body.status).toBe('FAILED');
  });

  it('two completions racing: both answer the same READY item, recorded once', async () => {
    const data = fixture('tone.ogg');
    const presigned = await call('POST', '/upload/presign', { token: owner.accessToken, body: { contentType: 'audio/ogg' } });
    await fetch(presigned.body.upload.url, { method: 'PUT', headers: presigned.body.upload.headers, body: data });
    const completeUrl = `/upload/presign/${presigned.body.media.id}/complete`;
    const [a, b] = await Promise.all([call('POST', completeUrl, { token: owner.accessToken }), call('POST', completeUrl, { token: owner.accessToken })]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body).toEqual(b.body);
    expect(a.body).toMatchObject({ status: 'READY', sizeBytes: data.length });
    expect(Buffer.from(await (await fetch(a.body.publicUrl)).arrayBuffer()).equals(data)).toBe(true);
  });

  it("a READY item's bytes cannot be replaced: its object is a copy, and the upload URL is closed", async () => {
    const data = fixture('tone.mp3');
    const presigned = await call('POST', '/upload/presign', { token: owner.accessToken, body: { contentType: 'audio/mpeg' } });
    await fetch(presigned.body.upload.url, { method: 'PUT', headers: presigned.body.upload.headers, body: data });
    const done = await call('POST', `/upload/presign/${presigned.body.media.id}/complete`, { token: owner.accessToken });
    expect(done.status).toBe(200);
    expect((await fetch(presigned.body.upload.url, { method: 'PUT', headers: presigned.body.upload.headers, body: fixture('tone.wav') })).status).toBe(404);
    // Even bytes landing at the upload key afterwards (a Cloud Storage URL is signed until it expires) change nothing.
    const uploadKey = path.join(storageRoot, 'uploads', owner.user.id, presigned.body.media.id);
    fs.mkdirSync(path.dirname(uploadKey), { recursive: true });
    fs.writeFileSync(uploadKey, FIXTURES.png);
    const served = Buffer.from(await (await fetch(done.body.publicUrl)).arrayBuffer());
    expect(served.equals(data)).toBe(true);
    const listed = await call('GET', `/media?sha256=${createHash('sha256').update(data).digest('hex')}`, { token: owner.accessToken });
    expect(listed.body.items.map((i: { id: string }) => i.id)).toContain(presigned.body.media.id);
  });

  it('a forged download token does not serve the file', async () => {
    const res = await upload('/upload/single', owner.accessToken, 'file', [{ data: fixture('tone.mp3'), type: 'audio/mpeg' }]);
    expect((await fetch(res.body.publicUrl.replace(/token=[^&]+/, 'token=forged'))).status).toBe(404);
    // A token of the right length in characters but not in bytes: 404, not 500.
    const token = new URL(res.body.publicUrl).searchParams.get('token')!;
    const multiByte = encodeURIComponent('é'.repeat(token.length));
    expect((await fetch(res.body.publicUrl.replace(/token=[^&]+/, `token=${multiByte}`))).status).toBe(404);
  });
});

describe('npm run sounds:upload', () => {
  it('uploads the 28-file pack in batches of 10, 10 and 8, then skips everything on a re-run', async () => {
    const uploader = await registerVerified();
    const root = path.join(__dirname, '..', '..', '..', '..');
    // Asynchronously: the API may run in this very process (the in-process tier), and a blocking spawn would
    // leave it unable to answer the script.
    const run = () =>
      new Promise<{ status: number | null; stdout: string }>((resolve) => {
        execFile(
          process.execPath,
          [path.join(root, 'scripts', 'sounds', 'upload.mjs')],
          { env: { ...process.env, SUPERAPP_API: API, SUPERAPP_TOKEN: uploader.accessToken }, encoding: 'utf8' },
          (err, stdout) => resolve({ status: err ? ((err as { code?: number }).code ?? 1) : 0, stdout }),
        );
      });
    const first = await run();
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/batch 1\/3: 10 files uploaded/);
    expect(first.stdout).toMatch(/batch 2\/3: 10 files uploaded/);
    expect(first.stdout).toMatch(/batch 3\/3: 8 files uploaded/);
    expect(first.stdout).toMatch(/summary: 28 uploaded, 0 already there, 0 failed/);
    const second = await run();
    expect(second.status).toBe(0);
    expect(second.stdout).toMatch(/summary: 0 uploaded, 28 already there, 0 failed/);
    const items = await call('GET', '/media?limit=200', { token: uploader.accessToken });
    expect(items.body.items).toHaveLength(28);
    expect(items.body.items.every((i: { mimeType: string; status: string }) => i.mimeType === 'audio/mpeg' && i.status === 'READY')).toBe(true);
  });
});
