import { z } from 'zod';
import { defineCatalog, defineCatalogItems } from '../../platform/kits/catalog/catalog.spec';
import { defineCatalogVertical } from '../../platform/kits/catalog/catalog.vertical';
import { distanceMeters } from '../../platform/kits/geo/geo';
import { priceRange } from '../../platform/kits/money/money.schemas';
import { partnerCatalogDeps } from '../partners';
import { HOME_SERVICE_PROVIDERS, HOME_SERVICES } from './homeservices.collections';

// Home-service providers on the map (the catalog kit), each serving the addresses within its coverage radius, and
// their services (the kit's child items) priced by the hour. Visits are booked in homeservices.bookings.ts.

export { HOME_SERVICE_PROVIDERS, HOME_SERVICES };

export const HOME_SERVICE_CATEGORIES = [
  'CLEANING',
  'DEEP_CLEANING',
  'AIRCON',
  'APPLIANCE_REPAIR',
  'PLUMBING',
  'ELECTRICAL',
  'PEST_CONTROL',
  'LAUNDRY',
] as const;

const services = defineCatalogItems({
  collection: HOME_SERVICES,
  segment: 'services',
  parentField: 'providerId',
  keyField: 'serviceKey',
  noun: 'service',
  nouns: 'services',
  parentNoun: 'provider',
  parentNouns: 'providers',
  schemaName: 'HomeService',
  pluralName: 'HomeServices',
  putNote: 'category, hourly price and the hours a visit takes',
  photos: true,
  maxPerRecord: 60,
  body: z
    .object({
      name: z.string().trim().min(2).max(80).describe('"Dọn nhà theo giờ", "Bảo dưỡng máy lạnh"'),
      category: z.enum(HOME_SERVICE_CATEGORIES),
      pricePerHourVnd: priceRange(10_000, 10_000_000).describe('The price of one hour of the visit'),
      minHours: z.number().int().min(1).max(12).describe('The shortest visit'),
      maxHours: z.number().int().min(1).max(12).describe('The longest visit'),
      description: z.string().trim().max(2_000).optional(),
    })
    .refine((s) => s.minHours <= s.maxHours, { path: ['maxHours'], message: 'maxHours is below minHours' }),
  view: z.object({
    name: z.string(),
    category: z.enum(HOME_SERVICE_CATEGORIES),
    pricePerHourVnd: z.number().int(),
    minHours: z.number().int(),
    maxHours: z.number().int(),
    description: z.string().optional(),
    photos: z.array(z.object({ id: z.string(), url: z.string() })).optional(),
  }),
});

export const providersCatalog = defineCatalog({
  tag: 'places',
  collection: HOME_SERVICE_PROVIDERS,
  basePath: '/home-services/providers',
  noun: 'home-service provider',
  nouns: 'home-service providers',
  schemaName: 'HomeServiceProvider',
  pluralName: 'HomeServiceProviders',
  details: z.object({
    categories: z.array(z.enum(HOME_SERVICE_CATEGORIES)).min(1).max(8).describe('What it does (its services’ categories)'),
    coverageRadiusM: z.number().int().min(1_000).max(50_000).describe('It serves addresses within this distance of its location'),
    teams: z.number().int().min(1).max(100).optional().describe('Visits it takes at once (its teams); 1 unless set'),
  }),
  detailDefaults: { teams: 1 },
  maxRadiusM: 50_000,
  partnerRequired: true,
  filters: z.object({ category: z.enum(HOME_SERVICE_CATEGORIES).optional().describe('Only providers doing this') }),
  // Nearby means serving the point asked about: within the provider's own coverage radius.
  keep: (p, f) =>
    (f.category === undefined || p.details.categories.includes(f.category)) && distanceMeters({ lat: p.lat, lng: p.lng }, f) <= p.details.coverageRadiusM,
  items: services,
});

export const providers = defineCatalogVertical(providersCatalog, { deps: () => partnerCatalogDeps });
export const providerRecords = providers.service;
export const providerServices = providers.items;
