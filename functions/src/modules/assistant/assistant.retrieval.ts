import type { PageContent } from '../cms';
import { foldedWords } from '../../platform/kits/text/text';

// BM25 over the published CMS pages: the assistant answers "how do I…" questions from passages of the help pages
// (an FAQ entry or a body paragraph), in the user's language first.

export type Lang = 'vi' | 'en';
export const LANGS: readonly Lang[] = ['vi', 'en'];

export interface Passage {
  id: string;
  slug: string;
  lang: Lang;
  title: string;
  question: string | null;
  text: string;
}

interface IndexedPassage {
  readonly passage: Passage;
  readonly termCounts: ReadonlyMap<string, number>;
  readonly length: number;
}

/** Built once per corpus by buildIndex; read only by searchPassages. */
export interface RetrievalIndex {
  readonly entries: readonly IndexedPassage[];
  readonly documentFrequency: ReadonlyMap<string, number>;
  readonly averageLength: number;
}

export interface SearchOptions {
  lang?: Lang;
  /** Passages returned at most (default 3). */
  k?: number;
  /** Lowest score returned (default DEFAULT_MIN_SCORE). */
  minScore?: number;
}

const K1 = 1.2;
const B = 0.75;
const DEFAULT_K = 3;
/**
 * A passage must score at least this to be returned. One query word found once in a passage scores about its idf:
 * above 1 unless more than about a third of the passages hold it, so a match on a word that common alone (say
 * "app" in every page) is not an answer, while one rare word or a two-syllable Vietnamese word (its bigram scores
 * too) is. In a corpus of fewer than about six passages even a unique word scores under 1 (idf is small there).
 */
export const DEFAULT_MIN_SCORE = 1.0;
export const PASSAGE_MAX_CHARS = 600;

// Folded, per language: "tôi" is a Vietnamese stopword, but "to" or "an" (tờ, ăn) are Vietnamese words, so a passage
// and the query scored against it drop the stopwords of the passage's language only.
const STOPWORDS: Record<Lang, ReadonlySet<string>> = {
  vi: new Set(
    'la cua toi cho va co khong the nao gi nhu duoc mot cac nhung thi de o voi ban minh em anh a oi lam sao nay vay nhe roi se da neu khi hay hoac'.split(' '),
  ),
  en: new Set(
    'the a an is are my i to of and how what do can for in on me it be does you your we our with at from this that was will or by if have has am there when where which why'.split(
      ' ',
    ),
  ),
};

/** The passages of the published pages: per language, one per FAQ entry and one per body paragraph. */
export function passagesOf(pages: ReadonlyArray<{ slug: string; version: number; content: PageContent }>): Passage[] {
  const passages: Passage[] = [];
  for (const { slug, content } of pages) {
    for (const lang of LANGS) {
      const title = content.title[lang].trim();
      content.faq.forEach((entry, i) => {
        const question = entry.question[lang].trim();
        const answer = entry.answer[lang].trim();
        // A question without an answer has nothing to quote.
        if (answer) passages.push({ id: `${slug}#faq${i}.${lang}`, slug, lang, title, question: question || null, text: answer });
      });
      paragraphsOf(content.body[lang]).forEach((text, i) => passages.push({ id: `${slug}#p${i}.${lang}`, slug, lang, title, question: null, text }));
    }
  }
  return passages;
}

// Paragraphs (blank-line separated), a long one cut at sentence ends, then at spaces, into pieces of at most
// PASSAGE_MAX_CHARS: a passage is quoted to the model, and one long page must not crowd out the others.
function paragraphsOf(body: string): string[] {
  return body
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0)
    .flatMap((p) => packed(p.split(/(?<=[.!?…])\s+/)));
}

function packed(pieces: string[]): string[] {
  const out: string[] = [];
  let current = '';
  for (const piece of pieces.flatMap((s) => (s.length > PASSAGE_MAX_CHARS ? splitLong(s) : [s]))) {
    if (current && current.length + 1 + piece.length > PASSAGE_MAX_CHARS) {
      out.push(current);
      current = piece;
    } else current = current ? `${current} ${piece}` : piece;
  }
  if (current) out.push(current);
  return out;
}

// A sentence longer than a passage: cut at spaces; a word longer than a passage, by code points.
function splitLong(sentence: string): string[] {
  const words = sentence.split(/\s+/).flatMap((w) => {
    const chars = Array.from(w);
    const parts: string[] = [];
    for (let i = 0; i < chars.length; i += PASSAGE_MAX_CHARS) parts.push(chars.slice(i, i + PASSAGE_MAX_CHARS).join(''));
    return parts;
  });
  return packed(words);
}

/**
 * The terms of a text for one language: its folded words minus that language's stopwords, plus the bigrams of
 * adjacent content words ("hoan_tien"): Vietnamese words are often two syllables, and "hoàn tiền" (refund) must
 * outrank a passage that merely holds "tiền" (money) somewhere.
 */
export function termsOf(text: string, lang: Lang): string[] {
  const stopwords = STOPWORDS[lang];
  const words = foldedWords(text);
  const terms: string[] = [];
  words.forEach((word, i) => {
    if (stopwords.has(word)) return;
    terms.push(word);
    const next = words[i + 1];
    if (next !== undefined && !stopwords.has(next)) terms.push(`${word}_${next}`);
  });
  return terms;
}

// What a passage is found by: an FAQ question twice (it says what the entry is about), then the answer; a paragraph
// with its page's title (a paragraph alone often lacks the topic word).
function indexedTextOf(passage: Passage): string[] {
  return passage.question !== null ? [passage.question, passage.question, passage.text] : [passage.title, passage.text];
}

export function buildIndex(passages: readonly Passage[]): RetrievalIndex {
  const documentFrequency = new Map<string, number>();
  const entries = passages.map((passage) => {
    const termCounts = new Map<string, number>();
    let length = 0;
    for (const text of indexedTextOf(passage)) {
      for (const term of termsOf(text, passage.lang)) {
        termCounts.set(term, (termCounts.get(term) ?? 0) + 1);
        length += 1;
      }
    }
    for (const term of termCounts.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
    return { passage, termCounts, length };
  });
  const averageLength = entries.length === 0 ? 0 : entries.reduce((sum, e) => sum + e.length, 0) / entries.length;
  return { entries, documentFrequency, averageLength };
}

function scoreOf(index: RetrievalIndex, entry: IndexedPassage, queryTerms: ReadonlySet<string>): number {
  const total = index.entries.length;
  const lengthNorm = 1 - B + (B * entry.length) / (index.averageLength || 1);
  let score = 0;
  for (const term of queryTerms) {
    const count = entry.termCounts.get(term);
    if (count === undefined) continue;
    const df = index.documentFrequency.get(term) ?? 0;
    const idf = Math.log(1 + (total - df + 0.5) / (df + 0.5));
    score += (idf * count * (K1 + 1)) / (count + K1 * lengthNorm);
  }
  return score;
}

const byScoreThenId = (a: { passage: Passage; score: number }, b: { passage: Passage; score: number }) =>
  b.score - a.score || (a.passage.id < b.passage.id ? -1 : a.passage.id > b.passage.id ? 1 : 0);

/**
 * The best passages for a query, score descending then id. With `lang`, passages of that language only, unless none
 * of them reaches minScore: then the other language's (a page may be translated in one language only).
 */
export function searchPassages(index: RetrievalIndex, query: string, opts: SearchOptions): Array<{ passage: Passage; score: number }> {
  const k = opts.k ?? DEFAULT_K;
  const minScore = opts.minScore ?? DEFAULT_MIN_SCORE;
  const queryTerms = { vi: new Set(termsOf(query, 'vi')), en: new Set(termsOf(query, 'en')) };
  const hitsIn = (langs: readonly Lang[]) =>
    index.entries
      .filter((e) => langs.includes(e.passage.lang))
      .map((e) => ({ passage: e.passage, score: scoreOf(index, e, queryTerms[e.passage.lang]) }))
      .filter((hit) => hit.score > 0 && hit.score >= minScore)
      .sort(byScoreThenId);
  if (opts.lang === undefined) return hitsIn(LANGS).slice(0, k);
  const preferred = hitsIn([opts.lang]);
  return (preferred.length > 0 ? preferred : hitsIn(LANGS.filter((l) => l !== opts.lang))).slice(0, k);
}
