import { registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { jpeg, mp4, png, quicktime, webmVideo, webp } from '../../helpers/images';
import fs from 'node:fs';
import path from 'node:path';

beforeAll(requireEmulators);

const tone = () => fs.readFileSync(path.join(__dirname, '..', '..', 'fixtures', 'audio', 'tone.mp3'));
async function upload(route: string, token: string | undefined, data: Buffer, type: string) {
  const form = new FormData();
  form.append('file', new Blob([data], { type }), 'picture');
  return call('POST', route, { token, form });
}

let owner: Tokens;
beforeAll(async () => {
  owner = await registerVerified();
});

describe('POST /upload/image', () => {
  it.each([
    ['image/jpeg', jpeg()],
    ['image/png', png()],
    ['image/webp', webp()],
  ])('accepts %s as a READY IMAGE item, served back byte for byte', async (type, data) => {
    const res = await upload('/upload/image', owner.accessToken, data, type);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ kind: 'IMAGE', mimeType: type, status: 'READY', sizeBytes: data.length });
    const served = await fetch(res.body.publicUrl);
    expect(Buffer.from(await served.arrayBuffer()).equals(data)).toBe(true);
  });

  it('refuses audio, disguised images and images on the audio routes (415); nothing listed', async () => {
    const before = (await call('GET', '/media?limit=200', { token: owner.accessToken })).body.items.length;
    for (const [route, data, type] of [
      ['/upload/image', tone(), 'audio/mpeg'],
      ['/upload/image', png(), 'image/jpeg'],
      ['/upload/image', tone(), 'image/png'],
      ['/upload/image', Buffer.from('<svg/>'), 'image/svg+xml'],
      ['/upload/single', png(), 'image/png'],
    ] as const) {
      const res = await upload(route, owner.accessToken, data, type);
      expect([route, type, res.status]).toEqual([route, type, 415]);
    }
    expect((await call('GET', '/media?limit=200', { token: owner.accessToken })).body.items.length).toBe(before);
  });

  it('anonymous callers get 401; an empty form 400', async () => {
    expect((await upload('/upload/image', undefined, png(), 'image/png')).status).toBe(401);
    expect((await call('POST', '/upload/image', { token: owner.accessToken, form: new FormData() })).status).toBe(400);
  });
});

describe('POST /upload/video', () => {
  it.each([
    ['video/mp4', mp4()],
    ['video/quicktime', quicktime()],
    ['video/webm', webmVideo()],
  ])('accepts %s as a READY VIDEO item', async (type, data) => {
    const res = await upload('/upload/video', owner.accessToken, data, type);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ kind: 'VIDEO', mimeType: type, status: 'READY', sizeBytes: data.length });
  });

  it('refuses disguised videos and videos on the image and audio routes (415)', async () => {
    for (const [route, data, type] of [
      ['/upload/video', png(), 'video/mp4'],
      ['/upload/video', mp4(), 'video/quicktime'],
      ['/upload/video', tone(), 'video/mp4'],
      ['/upload/image', mp4(), 'video/mp4'],
      ['/upload/single', mp4(), 'video/mp4'],
    ] as const) {
      expect([route, type, (await upload(route, owner.accessToken, data, type)).status]).toEqual([route, type, 415]);
    }
  });

  it('presigns a video up to MEDIA_MAX_VIDEO_BYTES, audio up to MEDIA_MAX_FILE_BYTES (413 when announced larger)', async () => {
    const presign = (contentType: string, sizeBytes: number) => call('POST', '/upload/presign', { token: owner.accessToken, body: { contentType, sizeBytes } });
    const video = await presign('video/mp4', 60 * 1024 * 1024);
    expect(video.status).toBe(201);
    expect(video.body).toMatchObject({ media: { kind: 'VIDEO', mimeType: 'video/mp4', status: 'PENDING' }, upload: { maxBytes: 100 * 1024 * 1024 } });
    expect((await presign('video/mp4', 101 * 1024 * 1024)).status).toBe(413);
    expect((await presign('audio/mpeg', 16 * 1024 * 1024)).status).toBe(413);
    expect((await presign('video/x-msvideo', 1_000)).status).toBe(415);
    // The presigned bytes are checked on completion like a direct upload: a video that is really a PNG is refused.
    const bad = (await presign('video/mp4', 1_000)).body;
    await fetch(bad.upload.url, { method: 'PUT', headers: bad.upload.headers, body: png() });
    expect((await call('POST', `/upload/presign/${bad.media.id}/complete`, { token: owner.accessToken })).status).toBe(415);
    const good = (await presign('video/mp4', 1_000)).body;
    await fetch(good.upload.url, { method: 'PUT', headers: good.upload.headers, body: mp4() });
    expect((await call('POST', `/upload/presign/${good.media.id}/complete`, { token: owner.accessToken })).body).toMatchObject({
      kind: 'VIDEO',
      status: 'READY',
    });
  });
});
