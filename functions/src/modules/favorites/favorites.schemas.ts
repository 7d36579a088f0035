import { z } from 'zod';
import { DocumentIdSchema } from '../../platform/core/http/ids';
import { targetTypes } from './favorites.targets';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';

// Lazy: the types come from the module list, which may be installed after this file loads (a trigger's code first).
export const TargetTypeSchema = z
  .lazy(() => z.enum(targetTypes() as [string, ...string[]]))
  .meta({ id: 'TargetType', description: 'A kind of record users save and review' });
export const TargetSummarySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    address: z.string().nullable(),
    location: z.object({ lat: z.number(), lng: z.number() }),
    photoUrl: z.string().nullable(),
    rating: z.object({ average: z.number(), count: z.number().int() }),
  })
  .meta({ id: 'TargetSummary' });
export const FavoriteSchema = z
  .object({
    type: TargetTypeSchema,
    targetId: z.string(),
    createdAt: IsoTimeSchema,
    target: TargetSummarySchema.nullable().describe('null: no longer available (hidden or archived)'),
  })
  .meta({ id: 'Favorite' });
export const FavoriteParamsSchema = z.object({ type: TargetTypeSchema, targetId: DocumentIdSchema });
