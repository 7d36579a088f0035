import { z } from 'zod';
import { catalogRoutes } from '../../platform/kits/catalog/catalog.routes';
import type { AppContext } from '../../platform/core/http/module';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { PLACE_CATEGORIES, PLACE_CATEGORY_LABELS } from './places.catalog';
import { placesService } from './places.wiring';

const CategorySchema = z.object({ id: z.enum(PLACE_CATEGORIES), en: z.string(), vi: z.string() }).meta({ id: 'PlaceCategory' });

export function placesRoutes(ctx: AppContext): AnyRoute[] {
  return [
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
    ...catalogRoutes(placesService(), ctx.config),
  ];
}
