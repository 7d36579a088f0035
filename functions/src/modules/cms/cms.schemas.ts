import { z } from 'zod';
import { DocumentIdSchema } from '../../platform/core/http/ids';
import { PageQuerySchema } from '../../platform/kits/firestore/paginate';
import { writtenText } from '../../platform/kits/text/text.schemas';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';
import { AUDIT_ACTIONS, PUBLISHING_STATUSES } from '../../platform/kits/publishing/publishing';

// Request and response shapes of the cms module. Texts come in both languages ({ vi, en }) and leave as plain data
// (never HTML: clients render them as text or markdown). Times enter and leave as ISO strings (stored as epoch ms).

export const CMS_SURFACES = ['CON', 'PAR', 'DRV'] as const;
export type CmsSurface = (typeof CMS_SURFACES)[number];
export const SECTION_TYPES = ['SHORTCUTS', 'CARDS', 'CAROUSEL'] as const;

export const SurfaceSchema = z.enum(CMS_SURFACES).meta({ id: 'CmsSurface', description: 'The app: CON consumer, PAR partner, DRV driver.' });
export const SurfaceParamsSchema = z.object({ surface: SurfaceSchema });
const CITY = /^[A-Z][A-Z0-9_]{1,29}$/;
export const CitySchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(CITY, 'a city code such as HO_CHI_MINH or HA_NOI')
  .describe('A city code (HO_CHI_MINH, HA_NOI, DA_NANG…), case ignored');
const localized = (max: number) => z.object({ vi: writtenText(max), en: writtenText(max) });
const LocalizedSchema = z.object({ vi: z.string(), en: z.string() }).meta({ id: 'CmsText', description: 'A text in Vietnamese and English.' });

const NAME = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;
export const LinkSchema = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('DEEP_LINK'),
      tab: z.string().regex(NAME),
      screen: z.string().regex(NAME),
      params: z
        .record(z.string().regex(NAME), z.string().max(200))
        .refine((p) => Object.keys(p).length <= 10, 'at most 10 params')
        .default({}),
    }),
    z.object({ type: z.literal('URL'), url: z.url({ protocol: /^https$/ }).max(2000) }),
  ])
  .meta({ id: 'CmsLink', description: 'Where a tap leads: a screen of the app (the inbox’s deepLink shape) or an https page.' });
export type CmsLink = z.output<typeof LinkSchema>;
const ImageSchema = z.object({ id: z.string(), url: z.string() }).meta({ id: 'CmsImage' });

// Times between 2000 and 2100: anything else is a typing mistake (and year 0 has no Firestore Timestamp).
const [EARLIEST, LATEST] = [Date.UTC(2000, 0, 1), Date.UTC(2100, 0, 1)];
const isoTime = () =>
  z.iso
    .datetime({ offset: true })
    .transform((t) => Date.parse(t))
    .refine((ms) => ms >= EARLIEST && ms < LATEST, 'must be between 2000 and 2100');
const schedule = {
  cities: z.array(CitySchema).max(20).describe('Only in these cities (empty: everywhere)'),
  startsAt: isoTime().describe('Shown from (ISO time)'),
  endsAt: isoTime().nullable().describe('Shown until (ISO time; null: no end)'),
  order: z.number().int().min(0).max(10_000).describe('Lower first'),
};
const scheduleDefaults = {
  cities: schedule.cities.default([]),
  startsAt: isoTime().optional().describe('Shown from (ISO time; default: when it is created)'),
  endsAt: schedule.endsAt.default(null),
  order: schedule.order.default(100),
};

// ---- stored contents (epoch ms) ----

export interface BannerContent extends Record<string, unknown> {
  surface: CmsSurface;
  title: { vi: string; en: string };
  subtitle: { vi: string; en: string } | null;
  image: { id: string; url: string };
  link: CmsLink | null;
  cities: string[];
  startsAt: number;
  endsAt: number | null;
  order: number;
}
export interface SectionItem {
  title: { vi: string; en: string };
  subtitle: { vi: string; en: string } | null;
  image: { id: string; url: string } | null;
  link: CmsLink | null;
}
export interface SectionContent extends Record<string, unknown> {
  surface: CmsSurface;
  type: (typeof SECTION_TYPES)[number];
  title: { vi: string; en: string };
  items: SectionItem[];
  cities: string[];
  startsAt: number;
  endsAt: number | null;
  order: number;
}
export interface PageContent extends Record<string, unknown> {
  title: { vi: string; en: string };
  body: { vi: string; en: string };
  faq: Array<{ question: { vi: string; en: string }; answer: { vi: string; en: string } }>;
}
export interface AppConfigContent extends Record<string, unknown> {
  minVersion: string;
  latestVersion: string;
  flags: Record<string, boolean>;
  maintenance: { active: boolean; message: { vi: string; en: string } | null; until: number | null };
}

// ---- request bodies ----

const Revision = z.number().int().min(1).describe('The draft revision you read (`revision`): 409 CMS_REVISION_CONFLICT if someone edited it since');
const ImageId = DocumentIdSchema.describe('One of your READY image uploads (POST /upload/image)');

export const BannerBodySchema = z
  .object({
    surface: SurfaceSchema,
    title: localized(80),
    subtitle: localized(160).nullable().default(null),
    imageId: ImageId,
    link: LinkSchema.nullable().default(null),
    ...schedule,
    ...scheduleDefaults,
  })
  .meta({ id: 'CmsBannerBody' });
export const BannerPatchSchema = z
  .object({
    surface: SurfaceSchema,
    title: localized(80),
    subtitle: localized(160).nullable(),
    imageId: ImageId,
    link: LinkSchema.nullable(),
    ...schedule,
  })
  .partial()
  .extend({ revision: Revision })
  .meta({ id: 'CmsBannerPatch' });

const SectionItemBody = z.object({
  title: localized(60),
  subtitle: localized(120).nullable().default(null),
  imageId: ImageId.nullable().default(null),
  link: LinkSchema.nullable().default(null),
});
const sectionFields = {
  surface: SurfaceSchema,
  type: z.enum(SECTION_TYPES).describe('How the app lays it out: SHORTCUTS (service tiles), CARDS, CAROUSEL'),
  title: localized(80),
  items: z.array(SectionItemBody).min(1).max(20),
};
export const SectionBodySchema = z.object({ ...sectionFields, ...schedule, ...scheduleDefaults }).meta({ id: 'CmsSectionBody' });
export const SectionPatchSchema = z
  .object({ ...sectionFields, ...schedule })
  .partial()
  .extend({ revision: Revision })
  .meta({ id: 'CmsSectionPatch' });

export const SLUG = /^[a-z0-9][a-z0-9-]{1,62}$/;
const pageFields = {
  title: localized(120),
  body: localized(20_000).describe('Plain text or markdown, both languages (up to 20,000 characters each)'),
  faq: z
    .array(z.object({ question: localized(300), answer: localized(2_000) }))
    .max(100)
    .describe('Questions and answers (a FAQ page)'),
};
export const PageBodySchema = z
  .object({ slug: z.string().regex(SLUG, 'lower-case letters, digits and dashes (2–63)').describe('The page’s address: terms, privacy, faq…'), ...pageFields })
  .extend({ faq: pageFields.faq.default([]) })
  .meta({ id: 'CmsPageBody' });
export const PagePatchSchema = z.object(pageFields).partial().extend({ revision: Revision }).meta({ id: 'CmsPagePatch' });

const SEMVER = /^(0|[1-9]\d{0,4})\.(0|[1-9]\d{0,4})\.(0|[1-9]\d{0,4})$/;
const Semver = z.string().regex(SEMVER, 'MAJOR.MINOR.PATCH, e.g. 2.14.0');
export const AppConfigPatchSchema = z
  .object({
    minVersion: Semver.describe('Older apps must update'),
    latestVersion: Semver.describe('Older apps may update'),
    flags: z
      .record(z.string().regex(/^[a-z][a-zA-Z0-9_.]{0,63}$/), z.boolean())
      .refine((f) => Object.keys(f).length <= 100, 'at most 100 flags')
      .describe('Feature flags: the whole set (a flag left out is gone)'),
    maintenance: z.object({ active: z.boolean(), message: localized(500).nullable(), until: isoTime().nullable() }),
  })
  .partial()
  .extend({ revision: Revision })
  .meta({ id: 'CmsAppConfigPatch' });

export const PublishBodySchema = z
  .object({
    revision: z.number().int().min(1).optional().describe('Publish only if the draft is still at this revision (the one you reviewed)'),
    note: z.string().trim().max(500).optional(),
  })
  .meta({ id: 'CmsPublishBody' });
export const RollbackBodySchema = z
  .object({
    version: z.number().int().min(1).describe('The version to make live again'),
    revision: z.number().int().min(1).optional().describe('Only if the draft is still at this revision (a rollback replaces the draft)'),
    note: z.string().trim().max(500).optional(),
  })
  .meta({ id: 'CmsRollbackBody' });
export const NoteBodySchema = z.object({ note: z.string().trim().max(500).optional() }).meta({ id: 'CmsNoteBody' });

// ---- views ----

const scheduleView = { cities: z.array(z.string()), startsAt: IsoTimeSchema, endsAt: IsoTimeSchema.nullable(), order: z.number().int() };
export const BannerViewSchema = z
  .object({
    surface: SurfaceSchema,
    title: LocalizedSchema,
    subtitle: LocalizedSchema.nullable(),
    image: ImageSchema,
    link: LinkSchema.nullable(),
    ...scheduleView,
  })
  .meta({ id: 'CmsBanner' });
const SectionItemView = z.object({ title: LocalizedSchema, subtitle: LocalizedSchema.nullable(), image: ImageSchema.nullable(), link: LinkSchema.nullable() });
export const SectionViewSchema = z
  .object({ surface: SurfaceSchema, type: z.enum(SECTION_TYPES), title: LocalizedSchema, items: z.array(SectionItemView), ...scheduleView })
  .meta({ id: 'CmsSection' });
const FaqView = z.object({ question: LocalizedSchema, answer: LocalizedSchema });
export const PageViewSchema = z.object({ title: LocalizedSchema, body: LocalizedSchema, faq: z.array(FaqView) }).meta({ id: 'CmsPage' });
const MaintenanceView = z.object({ active: z.boolean(), message: LocalizedSchema.nullable(), until: IsoTimeSchema.nullable() });
export const AppConfigViewSchema = z
  .object({ minVersion: z.string(), latestVersion: z.string(), flags: z.record(z.string(), z.boolean()), maintenance: MaintenanceView })
  .meta({ id: 'CmsAppConfig' });

/** An operator's view of a record: its draft, what is live, and what they may do next. */
export function adminRecordSchema<V extends z.ZodType>(name: string, view: V) {
  return z
    .object({
      id: z.string(),
      status: z.enum(PUBLISHING_STATUSES),
      draft: view,
      revision: z.number().int().describe('The draft’s revision (each edit adds one)'),
      live: view.nullable().describe('What apps see (null unless PUBLISHED)'),
      liveVersion: z.number().int().nullable(),
      liveRevision: z.number().int().nullable().describe('The draft revision that is live: equal to `revision` when nothing is waiting to publish'),
      latestVersion: z.number().int(),
      allowed: z
        .array(z.enum(['publish', 'rollback', 'unpublish', 'archive', 'restore']))
        .describe('Moves the status allows now (the operations this kind has)'),
      createdBy: z.string(),
      createdAt: IsoTimeSchema,
      updatedBy: z.string(),
      updatedAt: IsoTimeSchema,
      publishedBy: z.string().nullable(),
      publishedAt: IsoTimeSchema.nullable(),
    })
    .meta({ id: `Cms${name}Record` });
}
export function versionSchema<V extends z.ZodType>(name: string, view: V) {
  return z
    .object({
      version: z.number().int(),
      content: view,
      revision: z.number().int().nullable().describe('The draft revision published; null for a rollback'),
      rollbackOf: z.number().int().nullable().describe('The version a rollback restored'),
      by: z.string(),
      at: IsoTimeSchema,
      note: z.string().nullable(),
    })
    .meta({ id: `Cms${name}Version` });
}
export const AuditEntrySchema = z
  .object({
    id: z.string(),
    kind: z.enum(['banner', 'section', 'page', 'appConfig']),
    entityId: z.string(),
    action: z.enum(AUDIT_ACTIONS),
    by: z.string().describe('The administrator'),
    at: IsoTimeSchema,
    version: z.number().int().nullable().describe('The version made live (PUBLISH, ROLLBACK)'),
    revision: z.number().int(),
    note: z.string().nullable(),
  })
  .meta({ id: 'CmsAuditEntry' });
export const AuditQuerySchema = PageQuerySchema.extend({
  kind: AuditEntrySchema.shape.kind.optional(),
  entityId: z.string().min(1).max(128).optional().describe('One record’s trail (with kind)'),
  by: z.string().min(1).max(128).optional().describe('One administrator’s changes'),
}).refine((q) => q.entityId === undefined || q.kind !== undefined, { message: 'entityId needs kind', path: ['entityId'] });
export const AdminListQuerySchema = PageQuerySchema.extend({
  status: z.enum(PUBLISHING_STATUSES).optional(),
  surface: SurfaceSchema.optional().describe('Only this app’s (banners and sections)'),
});

// ---- public views ----

export const PublicBannerSchema = BannerViewSchema.omit({ cities: true, surface: true })
  .extend({ id: z.string(), version: z.number().int() })
  .meta({ id: 'CmsPublicBanner' });
export const PublicSectionSchema = SectionViewSchema.omit({ cities: true, surface: true })
  .extend({ id: z.string(), version: z.number().int() })
  .meta({ id: 'CmsPublicSection' });
export const LiveQuerySchema = z.object({ surface: SurfaceSchema, city: CitySchema.optional().describe('The city the app is in: its targeted items too') });
export const PublicPageSchema = PageViewSchema.extend({ slug: z.string(), version: z.number().int(), publishedAt: IsoTimeSchema }).meta({
  id: 'CmsPublicPage',
});
export const PageSummarySchema = z
  .object({ slug: z.string(), title: LocalizedSchema, version: z.number().int(), publishedAt: IsoTimeSchema })
  .meta({ id: 'CmsPageSummary' });
export const SlugParamsSchema = z.object({ slug: z.string().regex(SLUG) });
export const PublicAppConfigSchema = AppConfigViewSchema.extend({
  surface: SurfaceSchema,
  version: z.number().int().describe('The live version (0: nothing published yet, the defaults)'),
  publishedAt: IsoTimeSchema.nullable(),
  maintenanceNow: z.boolean().describe('Maintenance is on now (active and not past `until`)'),
  update: z
    .enum(['NONE', 'AVAILABLE', 'REQUIRED'])
    .nullable()
    .describe('With appVersion: REQUIRED below minVersion, AVAILABLE below latestVersion; null without it'),
}).meta({ id: 'CmsPublicAppConfig' });
export const AppConfigQuerySchema = z.object({ appVersion: Semver.optional().describe('The calling app’s version') });
