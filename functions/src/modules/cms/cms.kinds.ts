import type { z } from 'zod';
import { UnprocessableError, ValidationError } from '../../platform/core/errors/app-error';
import { iso, isoOrNull } from '../../platform/kits/time/time';
import { createPublisher, type ContentRecord, type Publisher, type PublisherSpec, type PublishingAction } from '../../platform/kits/publishing/publishing';
import { attachableImage } from '../media';
import { CMS_AUDIT, CMS_BANNERS, CMS_PAGES, CMS_SECTIONS } from './cms.collections';
import {
  BannerBodySchema,
  BannerPatchSchema,
  BannerViewSchema,
  PageBodySchema,
  PagePatchSchema,
  PageViewSchema,
  SectionBodySchema,
  SectionPatchSchema,
  SectionViewSchema,
  type BannerContent,
  type PageContent,
  type SectionContent,
  type SectionItem,
} from './cms.schemas';

// The three kinds of records the operators edit, publish and roll back through one set of routes (cms.admin.routes.ts):
// banners and home sections (per surface, scheduled, targeted at cities) and pages (terms, privacy, FAQ). Each says
// how a request body becomes stored content (images resolved to the editor's uploads, times to epoch ms), how a patch
// changes a draft, and how stored content leaves the API.

export const CMS_CODES: PublisherSpec<Record<string, unknown>>['codes'] = {
  status: 'CMS_STATUS_CONFLICT',
  revision: 'CMS_REVISION_CONFLICT',
  version: 'CMS_VERSION_NOT_FOUND',
  exists: 'CMS_ID_TAKEN',
};

export interface Editor {
  userId: string;
}

export interface ContentKind<C extends Record<string, unknown>, B, P, V extends z.ZodType> {
  kind: 'banner' | 'section' | 'page';
  /** The path segment under /cms/admin and the names of its operations. */
  segment: 'banners' | 'sections' | 'pages';
  name: 'Banner' | 'Section' | 'Page';
  publisher: Publisher<C>;
  body: z.ZodType<B>;
  patch: z.ZodType<P & { revision?: number }>;
  view: V;
  /** The record's id when the kind names it (a page's slug); otherwise one from the Idempotency-Key or a new one. */
  idOf?(body: B): string;
  /** The stored content of a create's body (reads the editor's images). */
  content(editor: Editor, body: B): Promise<C>;
  /** What a patch changes in a draft (reads the editor's images first; the change runs in the transaction). */
  change(editor: Editor, patch: P): Promise<(draft: C) => C>;
  toView(content: C): z.output<V>;
  /** Whether its drafts have a `surface` (the operators' list filters on it). */
  surfaceField?: boolean;
}

async function images(editor: Editor, ids: ReadonlyArray<string | null | undefined>): Promise<Map<string, { id: string; url: string }>> {
  const wanted = [...new Set(ids.filter((id): id is string => typeof id === 'string'))];
  const found = await Promise.all(wanted.map((id) => attachableImage(editor.userId, id)));
  const bad = wanted.filter((_, i) => !found[i]);
  if (bad.length > 0) throw new UnprocessableError('Use your own READY image uploads', { mediaIds: bad }).withCode('CMS_IMAGE_INVALID');
  return new Map(found.map((f) => [f!.id, { id: f!.id, url: f!.url }]));
}

/** The end of time for a record with no end (Date's largest), so one range query on `until` reads only what runs on. */
const FOREVER = 8_640_000_000_000_000;
/** What public reads query: the surface, and when it stops showing. */
const liveIndex = (c: { surface: string; endsAt: number | null }) => ({ surface: c.surface, until: c.endsAt ?? FOREVER });

/** Banners and sections: queried by surface among those not ended yet. */
const scheduledPublisher = <C extends BannerContent | SectionContent>(kind: string, collection: string) =>
  createPublisher<C>({ kind, collection, audit: CMS_AUDIT, indexOf: liveIndex, codes: CMS_CODES });

/** Refuses a schedule that ends before it starts (400, nothing written). */
function scheduled<C extends { startsAt: number; endsAt: number | null }>(content: C): C {
  if (content.endsAt !== null && content.endsAt <= content.startsAt)
    throw new ValidationError('endsAt must be after startsAt', [{ field: 'body.endsAt', message: 'must be after startsAt' }]);
  return content;
}

/** The fields of `patch` that are set (a patch leaves the others as they are). */
export function defined<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<T>;
}

const schedule = (c: { cities: string[]; startsAt: number; endsAt: number | null; order: number }) => ({
  cities: c.cities,
  startsAt: iso(c.startsAt),
  endsAt: isoOrNull(c.endsAt),
  order: c.order,
});

type BannerBody = z.output<typeof BannerBodySchema>;
type BannerPatch = z.output<typeof BannerPatchSchema>;
export const bannerKind: ContentKind<BannerContent, BannerBody, BannerPatch, typeof BannerViewSchema> = {
  kind: 'banner',
  segment: 'banners',
  name: 'Banner',
  publisher: scheduledPublisher<BannerContent>('banner', CMS_BANNERS),
  body: BannerBodySchema,
  patch: BannerPatchSchema,
  view: BannerViewSchema,
  surfaceField: true,
  async content(editor, { imageId, startsAt, ...body }) {
    const image = (await images(editor, [imageId])).get(imageId)!;
    return scheduled({ ...body, startsAt: startsAt ?? Date.now(), image });
  },
  async change(editor, { imageId, revision: _revision, ...patch }) {
    const image = imageId === undefined ? undefined : (await images(editor, [imageId])).get(imageId);
    return (draft) => scheduled({ ...draft, ...defined(patch), ...(image ? { image } : {}) });
  },
  toView: (c) => ({ surface: c.surface, title: c.title, subtitle: c.subtitle, image: c.image, link: c.link, ...schedule(c) }),
};

type SectionBody = z.output<typeof SectionBodySchema>;
type SectionPatch = z.output<typeof SectionPatchSchema>;
async function sectionItems(editor: Editor, items: SectionBody['items']): Promise<SectionItem[]> {
  const found = await images(
    editor,
    items.map((i) => i.imageId),
  );
  return items.map(({ imageId, ...item }) => ({ ...item, image: imageId === null ? null : found.get(imageId)! }));
}
export const sectionKind: ContentKind<SectionContent, SectionBody, SectionPatch, typeof SectionViewSchema> = {
  kind: 'section',
  segment: 'sections',
  name: 'Section',
  publisher: scheduledPublisher<SectionContent>('section', CMS_SECTIONS),
  body: SectionBodySchema,
  patch: SectionPatchSchema,
  view: SectionViewSchema,
  surfaceField: true,
  async content(editor, { items, startsAt, ...body }) {
    return scheduled({ ...body, startsAt: startsAt ?? Date.now(), items: await sectionItems(editor, items) });
  },
  async change(editor, { items, revision: _revision, ...patch }) {
    const resolved = items === undefined ? undefined : await sectionItems(editor, items);
    return (draft) => scheduled({ ...draft, ...defined(patch), ...(resolved ? { items: resolved } : {}) });
  },
  toView: (c) => ({ surface: c.surface, type: c.type, title: c.title, items: c.items, ...schedule(c) }),
};

type PageBody = z.output<typeof PageBodySchema>;
type PagePatch = z.output<typeof PagePatchSchema>;
export const pageKind: ContentKind<PageContent, PageBody, PagePatch, typeof PageViewSchema> = {
  kind: 'page',
  segment: 'pages',
  name: 'Page',
  publisher: createPublisher<PageContent>({ kind: 'page', collection: CMS_PAGES, audit: CMS_AUDIT, codes: { ...CMS_CODES, exists: 'CMS_SLUG_TAKEN' } }),
  body: PageBodySchema,
  patch: PagePatchSchema,
  view: PageViewSchema,
  idOf: (body) => body.slug,
  content: async ({ userId: _editor }, { slug: _slug, ...body }) => body,
  change:
    async (_editor, { revision: _revision, ...patch }) =>
    (draft) => ({ ...draft, ...defined(patch) }),
  toView: (c) => ({ title: c.title, body: c.body, faq: c.faq }),
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyKind = ContentKind<any, any, any, z.ZodType>;
export const CONTENT_KINDS: readonly AnyKind[] = [bannerKind, sectionKind, pageKind];

/** What the publishing routes need of a kind (the three kinds and the app config). */
export interface PublishedKind<C extends Record<string, unknown>> {
  publisher: Publisher<C>;
  toView(content: C): unknown;
  /** The moves this kind has routes for (default: all); `allowed` lists only those. */
  moves?: readonly PublishingAction[];
  /** A singleton's defaults: read before its first edit, created by its first edit or publish. */
  initial?: () => C;
}

/** The operator's view of a record (its draft and live content through the kind's view). */
export function adminView<C extends Record<string, unknown>>(kind: PublishedKind<C>, record: ContentRecord<C>) {
  return {
    id: record.id,
    status: record.status,
    draft: kind.toView(record.draft),
    revision: record.revision,
    live: record.live === null ? null : kind.toView(record.live),
    liveVersion: record.liveVersion,
    liveRevision: record.liveRevision,
    latestVersion: record.latestVersion,
    allowed: kind.publisher.machine.allowed(record.status, ['EDITOR']).filter((move) => !kind.moves || kind.moves.includes(move)),
    createdBy: record.createdBy,
    createdAt: iso(record.createdAt),
    updatedBy: record.updatedBy,
    updatedAt: iso(record.updatedAt),
    publishedBy: record.publishedBy,
    publishedAt: isoOrNull(record.publishedAt),
  };
}
