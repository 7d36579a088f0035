import { z } from 'zod';
import { PageQuerySchema } from '../../platform/kits/firestore/paginate';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { DeletedSchema } from '../../platform/core/http/ids';
import { FavoriteParamsSchema, FavoriteSchema, TargetTypeSchema } from './favorites.schemas';
import { createFavoritesService } from './favorites.service';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';

export function favoritesRoutes(): AnyRoute[] {
  const favorites = createFavoritesService();
  const common = { tag: 'favorites' as const, auth: [] as const, hat: 'CON' as const };
  return [
    defineRoute({
      ...common,
      method: 'get',
      path: '/favorites',
      operationId: 'listFavorites',
      summary: 'My favorites',
      request: { query: PageQuerySchema.extend({ type: TargetTypeSchema.optional() }) },
      response: {
        description: 'Newest first, each with what the record looks like now.',
        schema: z.object({ items: z.array(FavoriteSchema), nextCursor: z.string().nullable() }).meta({ id: 'FavoritePage' }),
      },
      handler: ({ auth, query }) => favorites.list(auth!.userId, query),
    }),
    defineRoute({
      ...common,
      method: 'get',
      path: '/favorites/:type/:targetId',
      operationId: 'getFavorite',
      summary: 'Whether I saved a record',
      request: { params: FavoriteParamsSchema },
      response: { description: 'saved, and since when.', schema: z.object({ saved: z.boolean(), createdAt: IsoTimeSchema.nullable() }) },
      handler: ({ auth, params }) => favorites.status(auth!.userId, params.type, params.targetId),
    }),
    defineRoute({
      ...common,
      method: 'put',
      path: '/favorites/:type/:targetId',
      operationId: 'addFavorite',
      summary: 'Save a record (idempotent)',
      description: 'The record must exist and be active (404). Saving it again answers 200 with created false. At most 500 favorites (409 FAVORITE_LIMIT).',
      errors: [404],
      codes: ['FAVORITE_LIMIT'],
      request: { params: FavoriteParamsSchema },
      response: { status: 201, description: 'Saved now (201) or before (200).', schema: z.object({ created: z.boolean(), favorite: FavoriteSchema }) },
      otherResponses: { 200: { description: 'It was saved already.' } },
      handler: async ({ auth, params, status }) => {
        const result = await favorites.add(auth!.userId, params.type, params.targetId);
        if (!result.created) status(200);
        return result;
      },
    }),
    defineRoute({
      ...common,
      method: 'delete',
      path: '/favorites/:type/:targetId',
      operationId: 'removeFavorite',
      summary: 'Remove a favorite (idempotent)',
      request: { params: FavoriteParamsSchema },
      response: { description: 'Not saved any more (also when it was not).', schema: DeletedSchema },
      handler: ({ auth, params }) => favorites.remove(auth!.userId, params.type, params.targetId),
    }),
  ];
}
