import { createHash } from 'node:crypto';
import { sha256, sha256Digester } from '../../src/platform/kits/ids/digest';

describe('content digests', () => {
  const data = Buffer.from('bytes of a file, in two pieces');

  it('sha256 gives the hex digest modules stored before, or base64url when asked', () => {
    expect(sha256(data)).toBe(createHash('sha256').update(data).digest('hex'));
    expect(sha256('text', 'base64url')).toBe(createHash('sha256').update('text').digest('base64url'));
  });

  it('a digest fed in chunks equals the digest of the whole', () => {
    const digester = sha256Digester();
    digester.update(data.subarray(0, 7));
    digester.update(data.subarray(7));
    expect(digester.digest()).toBe(sha256(data));
  });
});
