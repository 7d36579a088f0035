import { generateKeyPairSync } from 'node:crypto';
import { Storage } from '@google-cloud/storage';
import { cloudStorage } from '../../src/platform/core/storage/storage';

// The V4 signature is computed locally from a service account key: no network, no emulator.
describe('Cloud Storage presigned upload URL', () => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const storage = new Storage({
    projectId: 'demo',
    credentials: { client_email: 'signer@demo.iam.gserviceaccount.com', private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() },
  });
  const gcs = cloudStorage('demo-bucket', () => storage.bucket('demo-bucket'));

  it('signs the content type, a size range and create-only, and hands those headers to the client', async () => {
    const expires = Date.now() + 15 * 60_000;
    const signed = await gcs.signedUploadUrl!('uploads/u1/m1', 'audio/mpeg', expires, 15 * 1024 * 1024);
    const url = new URL(signed.url);
    expect(url.pathname).toBe('/demo-bucket/uploads/u1/m1');
    expect(url.searchParams.get('X-Goog-SignedHeaders')!.split(';').sort()).toEqual([
      'content-type',
      'host',
      'x-goog-content-length-range',
      'x-goog-if-generation-match',
    ]);
    // The library counts the seconds left from its own clock: 900, or 899 when a second turned meanwhile.
    expect(15 * 60 - Number(url.searchParams.get('X-Goog-Expires'))).toBeGreaterThanOrEqual(0);
    expect(15 * 60 - Number(url.searchParams.get('X-Goog-Expires'))).toBeLessThanOrEqual(1);
    expect(signed.headers).toEqual({ 'content-type': 'audio/mpeg', 'x-goog-content-length-range': `1,${15 * 1024 * 1024}`, 'x-goog-if-generation-match': '0' });
  });

  it('refuses keys the API did not build', async () => {
    await expect(gcs.signedUploadUrl!('../etc/passwd', 'audio/mpeg', Date.now() + 60_000, 10)).rejects.toThrow(/unsafe object key/);
  });
});
