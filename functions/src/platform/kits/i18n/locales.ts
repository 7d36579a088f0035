// The languages of the texts the server writes for people (push, inbox, mail, SMS). API error messages stay
// English: clients branch on their stable `code`.
export const LOCALES = ['vi', 'en'] as const;
export type Locale = (typeof LOCALES)[number];

export const isLocale = (value: unknown): value is Locale => typeof value === 'string' && (LOCALES as readonly string[]).includes(value);

// A header is the client's to fill: only this much of it is read.
const MAX_HEADER_CHARS = 1_000;
const MAX_RANGES = 32;
const RANGE = /^(\*|[a-z]{1,8}(-[a-z0-9]{1,8})*)$/;
const QVALUE = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/;

interface Range {
  tag: string;
  q: number;
  order: number;
}

function rangesOf(header: string): Range[] {
  const ranges: Range[] = [];
  const parts = header.slice(0, MAX_HEADER_CHARS).split(',').slice(0, MAX_RANGES);
  parts.forEach((part, order) => {
    const [rawTag, ...params] = part.split(';').map((s) => s.trim());
    const tag = (rawTag ?? '').toLowerCase();
    if (!RANGE.test(tag)) return;
    let q = 1;
    for (const param of params) {
      const [name, value = ''] = param.split('=').map((s) => s.trim());
      if (name.toLowerCase() !== 'q') continue;
      if (!QVALUE.test(value)) return; // a malformed weight: the range is left out
      q = Number(value);
    }
    ranges.push({ tag, q, order });
  });
  return ranges;
}

/**
 * The supported locale an `Accept-Language` header (RFC 9110 §12.5.4) prefers most: ranges by weight (ties in
 * the order given), `vi` and `vi-VN` are Vietnamese, `en` and every `en-*` English; `*` stands for any language the
 * header does not name (the fallback first); `q=0` refuses one. Absent, unreadable or naming nothing supported:
 * `fallback`.
 */
export function negotiateLocale(header: string | undefined, fallback: Locale): Locale {
  if (!header) return fallback;
  const ranges = rangesOf(header);
  const primary = (tag: string) => tag.split('-')[0];
  const named = new Set(ranges.filter((r) => r.tag !== '*').map((r) => primary(r.tag)));
  const wanted = ranges.filter((r) => r.q > 0).sort((a, b) => b.q - a.q || a.order - b.order);
  for (const range of wanted) {
    if (range.tag === '*') {
      const other = [fallback, ...LOCALES].find((l) => !named.has(l));
      if (other) return other;
      continue;
    }
    const language = primary(range.tag);
    if (isLocale(language)) return language;
  }
  return fallback;
}

/** The language a request asks for (its validated headers' `accept-language`), else `defaultLocale`: a new account's. */
export function requestLocale(headers: { 'accept-language'?: string | undefined }, defaultLocale: Locale): Locale {
  return negotiateLocale(headers['accept-language'], defaultLocale);
}
