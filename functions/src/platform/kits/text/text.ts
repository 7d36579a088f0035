/** Characters as people count them: code points (an emoji is one; `.length` counts UTF-16 units, two for most). */
export function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n += 1;
  return n;
}

// Cuts text by code points, never inside a surrogate pair (half a pair is not valid UTF-8: Firestore refuses it).
export function truncateText(text: string, maxCodePoints: number): string {
  if (text.length <= maxCodePoints) return text;
  return Array.from(text).slice(0, maxCodePoints).join('');
}

/** The first 2..max-code-point prefixes of a word (search indexes). */
export function prefixesOf(word: string, max: number, min = 2): string[] {
  const chars = Array.from(word);
  const out: string[] = [];
  for (let n = min; n <= Math.min(max, chars.length); n += 1) out.push(chars.slice(0, n).join(''));
  return out;
}

// A lone surrogate (half a pair) has no UTF-8 form: Firestore refuses the write.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// String.prototype.isWellFormed (Node 20, ES2024: not in this lib's typings) is several times faster than the pattern.
const nativeWellFormed = typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === 'function';
export function isWellFormedText(text: string): boolean {
  return nativeWellFormed ? (text as unknown as { isWellFormed(): boolean }).isWellFormed() : !LONE_SURROGATE.test(text);
}

/**
 * Text as search compares it: lower case, Vietnamese (and other) diacritics removed, đ → d, so "pho" finds
 * "Phở" and "duong" finds "Đường".
 */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').replace(/đ/gi, 'd').toLowerCase();
}

/** The folded words of a text (letters and digits). */
export function foldedWords(text: string): string[] {
  return foldText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

export const SEARCH_PREFIX_MAX = 15;

/** Prefix terms of every word of a name (2..15 characters), stored for `array-contains` search. */
export function searchTermsOf(text: string): string[] {
  return [...new Set(foldedWords(text).flatMap((w) => prefixesOf(w, SEARCH_PREFIX_MAX, Math.min(2, w.length))))];
}

/** Whether every word of a search matches the start of some word of `text` (both folded). */
export function matchesSearch(text: string, query: string): boolean {
  const words = foldedWords(text);
  return foldedWords(query).every((q) => words.some((w) => w.startsWith(q)));
}

/** The word of a search that narrows a query most (the longest), cut to a stored prefix length; '' for none. */
export function searchTermOf(query: string): string {
  return foldedWords(query)
    .reduce((a, b) => (b.length > a.length ? b : a), '')
    .slice(0, SEARCH_PREFIX_MAX);
}
