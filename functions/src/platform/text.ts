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
export function isWellFormedText(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}
