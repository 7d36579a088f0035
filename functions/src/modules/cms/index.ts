// Public face of the cms module: the published pages (the assistant answers FAQ questions from them).
export type { PageContent } from './cms.schemas';

/** Every published page with its live content (at most LIVE_READ_MAX). */
export async function publishedPages() {
  return (require('./cms.live') as typeof import('./cms.live')).publishedPages();
}
