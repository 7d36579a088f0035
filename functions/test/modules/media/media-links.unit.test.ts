import { isLiveLink, linkToken } from '../../../src/modules/media/media.links';

// Short-lived links (media.links): the item's id and expiry signed under a key derived from the server's secret and
// the item's id and download token.
const SECRET = 'server-secret-0123456789abcdef0123456789';
const item = { id: 'cKVOT4goanjLFp2HQNMN', downloadToken: 'tok-a9Jx2c7QpLw3vR8sZk1mN4bT6yH0dF5e' };
const T = 1_900_000_000_000;

describe('a short-lived link', () => {
  it('opens its item until it lapses, not a millisecond after', () => {
    const token = linkToken(item, T + 900_000, SECRET);
    expect([isLiveLink(item, token, T, SECRET), isLiveLink(item, token, T + 899_999, SECRET), isLiveLink(item, token, T + 900_000, SECRET)]).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('never opens another item, nor the same one once its download token changed (deleted and made anew)', () => {
    const token = linkToken(item, T + 900_000, SECRET);
    expect(isLiveLink({ ...item, id: 'another0000000000000' }, token, T, SECRET)).toBe(false);
    expect(isLiveLink({ ...item, downloadToken: 'tok-other' }, token, T, SECRET)).toBe(false);
  });

  it('an extended, forged or malformed token is refused', () => {
    const [body, signature] = linkToken(item, T + 900_000, SECRET).split('.');
    const terms = JSON.parse(Buffer.from(body, 'base64url').toString()) as { m: string; x: number };
    expect(terms).toEqual({ m: item.id, x: T + 900_000 });
    const extended = Buffer.from(JSON.stringify({ ...terms, x: T + 86_400_000 })).toString('base64url');
    for (const token of [`${extended}.${signature}`, `${body}.${'A'.repeat(43)}`, body, '', `${body}.${signature}.x`, item.downloadToken])
      expect(isLiveLink(item, token, T, SECRET)).toBe(false);
  });

  it('whoever knows the download token (it is in publicUrl) cannot sign one without the server secret, nor far ahead with it', async () => {
    const { purposeKey, signTerms } = await import('../../../src/platform/kits/ids/signed');
    // The key the first version derived from the download token alone: a holder of publicUrl could compute it.
    const byToken = signTerms({ m: item.id, x: T + 900_000 }, purposeKey(item.downloadToken, 'media-links'));
    expect(isLiveLink(item, byToken, T, SECRET)).toBe(false);
    expect(isLiveLink(item, linkToken(item, T + 900_000, 'another-server-secret-0123456789abcdef'), T, SECRET)).toBe(false);
    const farAhead = linkToken(item, T + 2 * 3_600_000, SECRET);
    expect([isLiveLink(item, farAhead, T, SECRET), isLiveLink(item, farAhead, T + 3_600_000, SECRET)]).toEqual([false, true]);
  });
});
