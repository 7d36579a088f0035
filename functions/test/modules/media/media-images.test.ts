import { registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { jpeg, png, webp } from '../../helpers/images';
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
