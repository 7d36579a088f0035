import { isLiveLink, linkToken } from '../../../src/modules/media/media.links';

// Short-lived links (media.links): the item's id and expiry signed under a key derived from its download token.
const item = { id: 'cKVOT4goanjLFp2HQNMN', downloadToken: 'tok-a9Jx2c7QpLw3vR8sZk1mN4bT6yH0dF5e' };
const T = 1_900_000_000_000;

describe('a short-lived link', () => {
  it('opens its item until it lapses, not a millisecond after', () => {
    const token = linkToken(item, T + 900_000);
    expect([isLiveLink(item, token, T), isLiveLink(item, token, T + 899_999), isLiveLink(item, token, T + 900_000)]).toEqual([true, true, false]);
  });

  it('never opens another item, nor the same one once its download token changed (deleted and made anew)', () => {
    const token = linkToken(item, T + 900_000);
    expect(isLiveLink({ ...item, id: 'another0000000000000' }, token, T)).toBe(false);
    expect(isLiveLink({ ...item, downloadToken: 'tok-other' }, token, T)).toBe(false);
  });

  it('an extended, forged or malformed token is refused', () => {
    const [body, signature] = linkToken(item, T + 900_000).split('.');
    const terms = JSON.parse(Buffer.from(body, 'base64url').toString()) as { m: string; x: number };
    expect(terms).toEqual({ m: item.id, x: T + 900_000 });
    const extended = Buffer.from(JSON.stringify({ ...terms, x: T + 86_400_000 })).toString('base64url');
    for (const token of [`${extended}.${signature}`, `${body}.${'A'.repeat(43)}`, body, '', `${body}.${signature}.x`, item.downloadToken])
      expect(isLiveLink(item, token, T)).toBe(false);
  });
});
