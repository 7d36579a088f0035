import { z } from 'zod';
import { LatLngBodySchema, LatLngSchema, NearbyQuerySchema } from '../geo/geo';
import { DocumentIdSchema } from '../../core/http/ids';
import { PageQuerySchema } from '../firestore/paginate';
import { BooleanQuerySchema } from '../../core/http/query';
import { CATALOG_STATUSES } from './catalog.model';
import { OpeningHoursSchema } from './hours';
import { PhoneSchema } from '../../core/http/contact';
import { IsoTimeSchema } from '../time/time.schemas';

// The shapes every catalog shares; a vertical adds its own fields (`details`) to the body and the view.

const text = (max: number) => z.string().trim().min(1).max(max);

export const CatalogBaseBodySchema = z.object({
  partnerId: DocumentIdSchema.optional().describe(
    'The partner that manages the record (you must be its owner or staff). Omitted: a record curated by the administrators (ADMIN only).',
  ),
  name: z.string().trim().min(2).max(120),
  description: text(2000).optional(),
  address: text(300).optional(),
  phone: PhoneSchema.optional(),
  location: LatLngBodySchema,
  photoIds: z.array(DocumentIdSchema).max(10).optional().describe('Your READY image uploads (POST /media), in display order'),
  openingHours: OpeningHoursSchema.optional(),
});

export const CatalogBasePatchSchema = z.object({
  name: z.string().trim().min(2).max(120).optional(),
  description: text(2000).nullable().optional().describe('null clears it'),
  address: text(300).nullable().optional().describe('null clears it'),
  phone: PhoneSchema.nullable().optional().describe('null clears it'),
  location: LatLngBodySchema.optional(),
  photoIds: z.array(DocumentIdSchema).max(10).optional().describe('Replaces the photos'),
  openingHours: OpeningHoursSchema.nullable().optional().describe('Replaces the hours; null: unknown'),
});

export const CatalogBaseViewSchema = z.object({
  id: z.string(),
  partnerId: z.string().nullable(),
  name: z.string(),
  description: z.string().nullable(),
  address: z.string().nullable(),
  phone: z.string().nullable(),
  location: z.object({ lat: z.number(), lng: z.number() }),
  photos: z.array(z.object({ id: z.string(), url: z.string() })),
  openingHours: OpeningHoursSchema.nullable(),
  openNow: z.boolean().nullable().describe('Open at the time of the answer, in the record’s time zone; null: hours unknown'),
  status: z.enum(CATALOG_STATUSES),
  statusReason: z.string().nullable().describe('Why an administrator hid it'),
  rating: z.object({ average: z.number().describe('0 when unrated'), count: z.number().int() }),
  distanceM: z.number().int().optional().describe('From the point of the query (nearby, or search with lat/lng)'),
  createdAt: IsoTimeSchema,
  updatedAt: IsoTimeSchema,
});

/** `nearby`'s query: the shared lat/lng/radiusM/limit, `openNow`, the cursor, and the vertical's filters. */
export const CatalogNearbyQuerySchema = NearbyQuerySchema.extend({
  openNow: BooleanQuerySchema.optional().describe('true: only records open now'),
  // Longer than a list's: it carries the partial ring of geohash cells the next page goes on from (a few kB at most).
  cursor: z.string().min(1).max(12_000).optional().describe('nextCursor of the previous page (opaque)'),
});

export const CatalogSearchQuerySchema = PageQuerySchema.extend({
  q: z.string().trim().min(2).max(60).describe('Words of the name; each matches the start of a word, diacritics ignored ("pho" finds "Phở")'),
  lat: LatLngSchema.shape.lat.optional().describe('With lng: each item gets distanceM'),
  lng: LatLngSchema.shape.lng.optional(),
}).refine((q) => (q.lat === undefined) === (q.lng === undefined), { message: 'lat and lng go together', path: ['lng'] });

export const CatalogMineQuerySchema = PageQuerySchema.extend({ partnerId: DocumentIdSchema.describe('One of your partners') });

export const CatalogAdminQuerySchema = PageQuerySchema.extend({
  status: z.enum(CATALOG_STATUSES).optional(),
  partnerId: DocumentIdSchema.optional(),
});

export const CatalogHideBodySchema = z
  .object({ reason: z.string().trim().min(3).max(500).describe('Shown to the record’s managers') })
  .meta({ id: 'CatalogHideBody' });

export const CatalogEventSchema = z
  .object({
    action: z.enum(['hide', 'restore', 'archive']),
    from: z.enum(CATALOG_STATUSES),
    to: z.enum(CATALOG_STATUSES),
    by: z.string(),
    at: IsoTimeSchema,
    reason: z.string().nullable(),
  })
  .meta({ id: 'CatalogEvent' });
