import { NotFoundError } from '../../platform/core/errors/app-error';
import type { ContentRecord, Publisher } from '../../platform/kits/publishing/publishing';
import { iso } from '../../platform/kits/time/time';
import { bannerKind, pageKind, sectionKind } from './cms.kinds';
import type { BannerContent, CmsSurface, PageContent, SectionContent } from './cms.schemas';

// What apps read: the live banners and home sections of a surface (in their schedule window, for the app's city),
// and the published pages. Public (no sign-in) and cached for a minute by clients and the CDN.

/** Live records read per query at most: a surface's banners or sections not ended yet, or the pages (a read budget). */
export const LIVE_READ_MAX = 200;

type Scheduled = { cities: string[]; startsAt: number; endsAt: number | null; order: number };

function showing<C extends Scheduled>(records: Array<ContentRecord<C>>, city: string | undefined, now: number) {
  return records
    .filter(({ live }) => {
      const c = live!;
      return c.startsAt <= now && (c.endsAt === null || now < c.endsAt) && (c.cities.length === 0 || (city !== undefined && c.cities.includes(city)));
    })
    .sort((a, b) => a.live!.order - b.live!.order || (b.publishedAt ?? 0) - (a.publishedAt ?? 0) || a.id.localeCompare(b.id));
}

/** A surface's live banners or sections showing now, in the app's order, without the targeting fields. */
async function showingNow<C extends BannerContent | SectionContent, V extends { surface: unknown; cities: unknown }>(
  kind: { publisher: Publisher<C>; toView(c: C): V },
  surface: CmsSurface,
  city: string | undefined,
  now: number,
) {
  const records = showing(await kind.publisher.liveWhere({ surface }, LIVE_READ_MAX, { field: 'until', value: now }), city, now);
  return records.map(({ id, liveVersion, live }) => {
    const { surface: _s, cities: _c, ...view } = kind.toView(live!);
    return { id, version: liveVersion!, ...view };
  });
}

export const liveBanners = (surface: CmsSurface, city: string | undefined, now: number) => showingNow(bannerKind, surface, city, now);
export const liveSections = (surface: CmsSurface, city: string | undefined, now: number) => showingNow(sectionKind, surface, city, now);

/** The published pages, by slug. */
export async function livePages() {
  // Titles only: a page's body stays unread.
  const records = await pageKind.publisher.liveAll(LIVE_READ_MAX, ['status', 'live.title', 'liveVersion', 'publishedAt']);
  return records
    .map(({ id, live, liveVersion, publishedAt }) => ({ slug: id, title: live!.title, version: liveVersion!, publishedAt: iso(publishedAt!) }))
    .sort((a, b) => a.slug.localeCompare(b.slug));
}

/** One published page (404 otherwise: drafts are never public). */
export async function livePage(slug: string) {
  const record = await pageKind.publisher.get(slug);
  if (!record || record.status !== 'PUBLISHED' || record.live === null) throw new NotFoundError('No such page');
  return { slug, ...pageKind.toView(record.live), version: record.liveVersion!, publishedAt: iso(record.publishedAt!) };
}

/** Published pages with their content (the assistant's FAQ retrieval reads them through the module's public face). */
export async function publishedPages(): Promise<Array<{ slug: string; version: number; content: PageContent }>> {
  const records = await pageKind.publisher.liveAll(LIVE_READ_MAX);
  return records.map((r) => ({ slug: r.id, version: r.liveVersion!, content: r.live! }));
}
