// Public face of the cms module: the published pages with their content (for modules that answer from them, such
// as the assistant's FAQ retrieval, issue 35).
export type { PageContent } from './cms.schemas';

/** Every published page with its live content (at most LIVE_READ_MAX). */
export async function publishedPages() {
  return (require('./cms.live') as typeof import('./cms.live')).publishedPages();
}
