import type { Response } from 'express';
import { z } from 'zod';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { publicAppConfig } from './cms.app-config';
import { cmsAdminRoutes } from './cms.admin.routes';
import { liveBanners, livePage, livePages, liveSections } from './cms.live';
import {
  AppConfigQuerySchema,
  LiveQuerySchema,
  PageSummarySchema,
  PublicAppConfigSchema,
  PublicBannerSchema,
  PublicPageSchema,
  PublicSectionSchema,
  SlugParamsSchema,
  SurfaceParamsSchema,
} from './cms.schemas';

// What apps read, signed in or not (the same for everyone: cacheable for a minute), then the operators' routes.

const PUBLIC = { tag: 'cms' as const, auth: 'public' as const };
const SHORT_CACHE = 'public, max-age=60';
const cached = <T>(res: Response, value: T): T => {
  res.setHeader('cache-control', SHORT_CACHE);
  return value;
};
const SCHEDULED =
  'Published, in their schedule window now, for every city or for the `city` given; lower `order` first. Texts in both languages ({ vi, en }), as plain data. Cached for a minute (cache-control).';

export function cmsRoutes(): AnyRoute[] {
  return [
    defineRoute({
      ...PUBLIC,
      method: 'get',
      path: '/cms/banners',
      operationId: 'listCmsBanners',
      summary: 'The banners an app shows now',
      description: SCHEDULED,
      request: { query: LiveQuerySchema },
      response: { description: 'The banners.', schema: z.object({ items: z.array(PublicBannerSchema) }) },
      handler: async ({ query, res }) => cached(res, { items: await liveBanners(query.surface, query.city, Date.now()) }),
    }),
    defineRoute({
      ...PUBLIC,
      method: 'get',
      path: '/cms/home',
      operationId: 'getCmsHome',
      summary: 'An app’s home screen: its banners and sections now',
      description: SCHEDULED,
      request: { query: LiveQuerySchema },
      response: {
        description: 'Banners and sections.',
        schema: z.object({ banners: z.array(PublicBannerSchema), sections: z.array(PublicSectionSchema) }).meta({ id: 'CmsHome' }),
      },
      handler: async ({ query, res }) => {
        const now = Date.now();
        const [banners, sections] = await Promise.all([liveBanners(query.surface, query.city, now), liveSections(query.surface, query.city, now)]);
        return cached(res, { banners, sections });
      },
    }),
    defineRoute({
      ...PUBLIC,
      method: 'get',
      path: '/cms/pages',
      operationId: 'listCmsPages',
      summary: 'The published pages (terms, privacy, FAQ…)',
      description: 'By slug, with their titles and live versions.',
      response: { description: 'The pages.', schema: z.object({ items: z.array(PageSummarySchema) }) },
      handler: async ({ res }) => cached(res, { items: await livePages() }),
    }),
    defineRoute({
      ...PUBLIC,
      method: 'get',
      path: '/cms/pages/:slug',
      operationId: 'getCmsPage',
      summary: 'One published page',
      description: 'Its live version in both languages (body as plain text or markdown, FAQ entries). Drafts and unpublished pages: 404.',
      errors: [404],
      request: { params: SlugParamsSchema },
      response: { description: 'The page.', schema: PublicPageSchema },
      handler: async ({ params, res }) => cached(res, await livePage(params.slug)),
    }),
    defineRoute({
      ...PUBLIC,
      method: 'get',
      path: '/cms/config/:surface',
      operationId: 'getCmsAppConfig',
      summary: 'An app’s config: minimum version, feature flags, maintenance',
      description:
        'Readable without sign-in, at app start. The same live document is `app_config/{surface}` in Firestore, which anyone may listen to for changes. Before the first publish: the defaults (version 0). With `appVersion`, `update` says whether the app must (REQUIRED) or may (AVAILABLE) update.',
      request: { params: SurfaceParamsSchema, query: AppConfigQuerySchema },
      response: { description: 'The config.', schema: PublicAppConfigSchema },
      handler: async ({ params, query, res }) => cached(res, await publicAppConfig(params.surface, query.appVersion, Date.now())),
    }),
    ...cmsAdminRoutes(),
  ];
}
