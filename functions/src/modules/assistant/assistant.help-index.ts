import { publishedPages } from '../cms';
import { buildIndex, passagesOf, searchPassages, type Lang, type Passage, type RetrievalIndex } from './assistant.retrieval';

// The help pages' index (BM25 over the published CMS pages), built once per set of page versions and checked again
// at most once a minute: a page published now is found within a minute, and questions cost no reads meanwhile.
const RECHECK_MS = 60_000;
let cached: { key: string; checkedAt: number; index: RetrievalIndex } | undefined;

export async function helpIndex(now = Date.now()): Promise<RetrievalIndex> {
  if (cached && now - cached.checkedAt < RECHECK_MS) return cached.index;
  const pages = await publishedPages();
  const key = pages.map((p) => `${p.slug}@${p.version}`).join(',');
  if (cached?.key !== key) cached = { key, checkedAt: now, index: buildIndex(passagesOf(pages)) };
  cached.checkedAt = now;
  return cached.index;
}

/** The best passages for a question, in its language first. */
export async function searchHelp(query: string, lang: Lang, k = 3): Promise<Array<{ passage: Passage; score: number }>> {
  return searchPassages(await helpIndex(), query, { lang, k });
}

/** Forgets the index (tests publishing pages in the same process). */
export function forgetHelpIndex(): void {
  cached = undefined;
}
