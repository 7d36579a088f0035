import { z } from 'zod';
import { ValidationError } from '../../platform/core/errors/app-error';
import { BooleanQuerySchema } from '../../platform/core/http/query';
import { defineCatalog } from '../../platform/kits/catalog/catalog.spec';
import { defineCatalogVertical } from '../../platform/kits/catalog/catalog.vertical';
import { CalendarDateSchema } from '../../platform/kits/inventory/units.schemas';
import { priceRange } from '../../platform/kits/money/money.schemas';
import { partnerCatalogDeps } from '../partners';
import { RENTAL_LISTINGS } from './rentals.collections';

// Homes to rent on the map (the catalog kit): a landlord's (a partner's) apartments, rooms and houses with their
// monthly rent, deposit, area and rooms. The landlord manages them under /rentals/partner/listings (the spec's PATCH
// /rentals/partner/listings/:id), everyone reads them under /rentals/listings. The listing's opening hours are its
// viewing hours (rentals.viewings.ts).

export { RENTAL_LISTINGS };

export const RENTAL_KINDS = ['APARTMENT', 'ROOM', 'HOUSE', 'STUDIO'] as const;
export const FURNISHING = ['FULL', 'BASIC', 'NONE'] as const;

const details = z.object({
  kind: z.enum(RENTAL_KINDS),
  monthlyRentVnd: priceRange(100_000, 2_000_000_000).describe('VND a month'),
  depositVnd: priceRange(0, 10_000_000_000).describe('VND held until the lease is signed (usually one to three months’ rent)'),
  areaM2: z.number().int().min(5).max(10_000),
  bedrooms: z.number().int().min(0).max(20).describe('0: a studio or a single room'),
  bathrooms: z.number().int().min(0).max(20),
  furnished: z.enum(FURNISHING).optional(),
  amenities: z.array(z.string().trim().min(1).max(40)).max(30).optional().describe('"Máy lạnh", "Ban công", "Chỗ để xe"…'),
  availableFrom: CalendarDateSchema.optional().describe('The first day it can be moved into'),
  minLeaseMonths: z.number().int().min(1).max(60).optional(),
  maxOccupants: z.number().int().min(1).max(30).optional(),
  petsAllowed: z.boolean().optional(),
});

export const rentalsCatalog = defineCatalog({
  tag: 'rentals',
  collection: RENTAL_LISTINGS,
  basePath: '/rentals/listings',
  managePath: '/rentals/partner/listings',
  hideFromOthers: true,
  noun: 'rental listing',
  nouns: 'rental listings',
  schemaName: 'RentalListing',
  pluralName: 'RentalListings',
  details,
  maxRadiusM: 20_000,
  partnerRequired: true,
  filters: z.object({
    kind: z.enum(RENTAL_KINDS).optional(),
    minRentVnd: z.coerce.number().int().min(0).optional(),
    maxRentVnd: z.coerce.number().int().min(0).optional(),
    minBedrooms: z.coerce.number().int().min(0).max(20).optional(),
    minAreaM2: z.coerce.number().int().min(0).optional(),
    furnished: z.enum(FURNISHING).optional(),
    petsAllowed: BooleanQuerySchema.optional(),
    sort: z.enum(['distance', 'rent']).optional().describe('`rent`: cheapest first within the radius (then distance)'),
  }),
  keep: (l, f) =>
    (f.kind === undefined || l.details.kind === f.kind) &&
    (f.minRentVnd === undefined || l.details.monthlyRentVnd >= f.minRentVnd) &&
    (f.maxRentVnd === undefined || l.details.monthlyRentVnd <= f.maxRentVnd) &&
    (f.minBedrooms === undefined || l.details.bedrooms >= f.minBedrooms) &&
    (f.minAreaM2 === undefined || l.details.areaM2 >= f.minAreaM2) &&
    (f.furnished === undefined || l.details.furnished === f.furnished) &&
    (f.petsAllowed === undefined || l.details.petsAllowed === f.petsAllowed),
  rankBy: (f) => (f.sort === 'rent' ? (d) => d.monthlyRentVnd : undefined),
  check(d) {
    if (d.depositVnd > d.monthlyRentVnd * 12)
      throw new ValidationError('the deposit is at most a year’s rent', [
        { field: 'body.depositVnd', message: `must be at most 12 × monthlyRentVnd (${d.monthlyRentVnd * 12})` },
      ]);
  },
});

export const rentals = defineCatalogVertical(rentalsCatalog, { deps: () => partnerCatalogDeps });
export const rentalListings = rentals.service;
