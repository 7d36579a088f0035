import { z } from 'zod';
import { CATALOG_ADMIN_PATH, catalogRoutes, catalogSchemas } from '../../platform/kits/catalog/catalog.routes';
import { ConflictError } from '../../platform/core/errors/app-error';
import type { AppContext } from '../../platform/core/http/module';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { IdParamsSchema } from '../../platform/core/http/ids';
import { parkingCatalog } from './parking.catalog';
import { parkingLots } from './parking.wiring';

const AvailabilityBodySchema = z
  .object({
    freeSpaces: z.number().int().min(0).max(100_000).optional().describe('The count now (a staff member counted)'),
    delta: z
      .number()
      .int()
      .min(-1000)
      .max(1000)
      .refine((d) => d !== 0, 'must not be 0')
      .optional()
      .describe('A change: -1 a vehicle came in, +1 one left (a gate sensor)'),
  })
  .refine((b) => (b.freeSpaces === undefined) !== (b.delta === undefined), { message: 'send exactly one of freeSpaces and delta' })
  .meta({ id: 'ParkingAvailabilityBody' });

export function parkingRoutes(ctx: AppContext): AnyRoute[] {
  const lots = parkingLots();
  return [
    ...catalogRoutes(lots, ctx.config),
    defineRoute({
      method: 'put',
      path: '/parking/lots/:id/availability',
      operationId: 'reportParkingAvailability',
      tag: 'parking',
      summary: 'Report the free spaces of a lot',
      description: `By the lot’s managers: the count (freeSpaces) or a change (delta), applied in a transaction so gate sensors at two entrances do not overwrite each other. A delta that would leave fewer than 0 or more than capacity is 409 PARKING_SPACES_OUT_OF_RANGE. Sustained rate: about one report per second per lot. ${CATALOG_ADMIN_PATH}`,
      auth: ['PARTNER_OWNER', 'PARTNER_STAFF', 'ADMIN'],
      permission: 'catalog.manage',
      errors: [404],
      codes: ['CATALOG_NOT_MANAGER', 'CATALOG_TRANSITION', 'PARKING_SPACES_OUT_OF_RANGE', 'PERMISSION_REQUIRED'],
      request: { params: IdParamsSchema, body: AvailabilityBodySchema },
      response: { description: 'The lot with its new count.', schema: catalogSchemas(parkingCatalog).view },
      handler: ({ params, body, auth }) =>
        lots.changeDetails(params.id, auth!, (lot) => {
          const free = body.freeSpaces ?? lot.details.freeSpaces + body.delta!;
          if (free < 0 || free > lot.details.capacity) {
            throw new ConflictError(`Free spaces would be ${free}, outside 0..${lot.details.capacity}`, {
              freeSpaces: lot.details.freeSpaces,
              capacity: lot.details.capacity,
            }).withCode('PARKING_SPACES_OUT_OF_RANGE');
          }
          return { freeSpaces: free };
        }),
    }),
  ];
}
