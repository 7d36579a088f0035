import { z } from 'zod';
import { defineCatalog } from '../../platform/kits/catalog/catalog.spec';
import { defineCatalogVertical } from '../../platform/kits/catalog/catalog.vertical';
import { defineRoute } from '../../platform/core/http/route';
import { partnerCatalogDeps } from '../partners';
import { PLACES } from './places.collections';

// Places on the map tab (restaurants, cafés, sights, shops…): the kit's catalog and a list of categories.

export { PLACES };

export const PLACE_CATEGORIES = [
  'RESTAURANT',
  'CAFE',
  'ATTRACTION',
  'SHOPPING',
  'HOSPITAL',
  'SCHOOL',
  'HOTEL',
  'PARK',
  'MARKET',
  'GYM',
  'BANK',
  'OTHER',
] as const;
export const PLACE_CATEGORY_LABELS: Record<(typeof PLACE_CATEGORIES)[number], { en: string; vi: string }> = {
  RESTAURANT: { en: 'Restaurants', vi: 'Nhà hàng' },
  CAFE: { en: 'Cafés', vi: 'Quán cà phê' },
  ATTRACTION: { en: 'Attractions', vi: 'Điểm tham quan' },
  SHOPPING: { en: 'Shopping', vi: 'Mua sắm' },
  HOSPITAL: { en: 'Hospitals', vi: 'Bệnh viện' },
  SCHOOL: { en: 'Schools', vi: 'Trường học' },
  HOTEL: { en: 'Hotels', vi: 'Khách sạn' },
  PARK: { en: 'Parks', vi: 'Công viên' },
  MARKET: { en: 'Markets', vi: 'Chợ' },
  GYM: { en: 'Gyms', vi: 'Phòng tập' },
  BANK: { en: 'Banks', vi: 'Ngân hàng' },
  OTHER: { en: 'Other', vi: 'Khác' },
};

const details = z.object({
  category: z.enum(PLACE_CATEGORIES),
  priceLevel: z.number().int().min(1).max(4).optional().describe('1 (cheap) to 4 (expensive)'),
  tags: z.array(z.string().trim().min(1).max(30)).max(10).optional().describe('Free labels: "wifi", "view", "vegetarian"…'),
  website: z.url().max(300).optional(),
});

export const placesCatalog = defineCatalog({
  tag: 'places',
  collection: PLACES,
  basePath: '/places',
  noun: 'place',
  nouns: 'places',
  schemaName: 'Place',
  pluralName: 'Places',
  details,
  maxRadiusM: 10_000,
  filters: z.object({ category: z.enum(PLACE_CATEGORIES).optional() }),
  keep: (place, f) => f.category === undefined || place.details.category === f.category,
});

const CategorySchema = z.object({ id: z.enum(PLACE_CATEGORIES), en: z.string(), vi: z.string() }).meta({ id: 'PlaceCategory' });

export const places = defineCatalogVertical(placesCatalog, {
  deps: () => partnerCatalogDeps,
  routes: () => ({
    before: [
      defineRoute({
        method: 'get',
        path: '/places/categories',
        operationId: 'listPlaceCategories',
        tag: 'places',
        summary: 'Place categories (for the map tab’s filter chips)',
        auth: [],
        response: { description: 'Each category with its English and Vietnamese label.', schema: z.object({ categories: z.array(CategorySchema) }) },
        handler: () => ({ categories: PLACE_CATEGORIES.map((id) => ({ id, ...PLACE_CATEGORY_LABELS[id] })) }),
      }),
    ],
  }),
});
export const placesService = places.service;
