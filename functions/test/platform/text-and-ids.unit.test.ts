import { DocumentIdSchema, isDocumentId } from '../../src/platform/core/http/ids';
import { isWellFormedText, prefixesOf, truncateText } from '../../src/platform/kits/text/text';
import { queryFields } from '../../src/modules/users/users.model';

describe('document ids (Firestore rules)', () => {
  it.each(['abc', 'Lan_1-2.x', 'é'.repeat(10), '_x_', '__x', 'a'.repeat(1500)])('accepts %s', (id) => {
    expect(isDocumentId(id)).toBe(true);
  });
  it.each(['', '.', '..', '__proto__', '__x__', 'a/b', '../../etc/passwd', 'é'.repeat(751), 'bad\ud800'])('refuses %j', (id) => {
    expect(isDocumentId(id)).toBe(false);
    expect(DocumentIdSchema.safeParse(id).success).toBe(false);
  });
});

describe('text cut by code points', () => {
  it('never splits a surrogate pair', () => {
    const emoji = '😀'.repeat(50);
    expect(truncateText(emoji, 20)).toBe('😀'.repeat(20));
    expect(isWellFormedText(truncateText(emoji, 7))).toBe(true);
    expect(truncateText('short', 20)).toBe('short');
    expect(prefixesOf('😀ab', 3)).toEqual(['😀a', '😀ab']);
  });

  it('search prefixes of a 50-emoji name are all valid Unicode (the 500 of PATCH /users/me)', () => {
    const { searchPrefixes } = queryFields({ roles: ['USER'], email: 'lan@example.com', name: '😀'.repeat(50), phone: null });
    expect(searchPrefixes.every(isWellFormedText)).toBe(true);
    expect(searchPrefixes).toContain('😀'.repeat(20));
  });

  it('detects lone surrogates', () => {
    expect(isWellFormedText('ok 😀')).toBe(true);
    expect(isWellFormedText('\ud800')).toBe(false);
    expect(isWellFormedText('\udc00x')).toBe(false);
  });
});
