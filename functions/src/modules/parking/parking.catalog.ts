import { z } from 'zod';
import { defineCatalog } from '../../platform/kits/catalog/catalog.spec';
import { defineCatalogVertical } from '../../platform/kits/catalog/catalog.vertical';
import { CATALOG_ADMIN_PATH, catalogSchemas } from '../../platform/kits/catalog/catalog.routes';
import { ConflictError, ValidationError } from '../../platform/core/errors/app-error';
import { defineRoute } from '../../platform/core/http/route';
import { IdParamsSchema } from '../../platform/core/http/ids';
import { partnerCatalogDeps } from '../partners';
import { priceRange } from '../../platform/kits/money/money.schemas';
import { PARKING_LOTS } from './parking.collections';

// Parking lots on the map: capacity, hourly prices per vehicle type and live free spaces (their own operation).

export { PARKING_LOTS };

export const PARKING_VEHICLES = ['MOTORBIKE', 'CAR', 'BICYCLE'] as const;

const vnd = priceRange(0, 10_000_000); // per hour; 0: free
const spaces = z.number().int().min(0).max(100_000);
const details = z.object({
  capacity: z.number().int().min(1).max(100_000).describe('Spaces in all'),
  freeSpaces: z.number().int().min(0).max(100_000).describe('Free now; changed afterwards through PUT …/availability'),
  pricesPerHour: z
    .object({ MOTORBIKE: vnd.optional(), CAR: vnd.optional(), BICYCLE: vnd.optional() })
    .refine((p) => Object.values(p).some((v) => v !== undefined), 'price at least one vehicle type')
    .describe('VND per hour by vehicle type; a type without a price is not accepted here'),
  covered: z.boolean().optional(),
  evCharging: z.boolean().optional(),
  bookableSpaces: z
    .object({ MOTORBIKE: spaces.optional(), CAR: spaces.optional(), BICYCLE: spaces.optional() })
    .optional()
    .describe('Spaces of each vehicle type that can be booked ahead by the hour (the rest are for drivers who just arrive); none: no bookings'),
  cancellation: z
    .object({
      freeUntilHours: z.number().int().min(0).max(168).describe('Free until this many hours before the start'),
      lateFeeBp: z.number().int().min(0).max(10_000).describe('Then this share of the price, in basis points'),
    })
    .optional()
    .describe('The cancellation policy of its bookings (free until 1 h before, then the whole price when absent)'),
});

export const parkingCatalog = defineCatalog({
  tag: 'parking',
  collection: PARKING_LOTS,
  basePath: '/parking/lots',
  noun: 'parking lot',
  nouns: 'parking lots',
  schemaName: 'ParkingLot',
  pluralName: 'ParkingLots',
  details,
  maxRadiusM: 5_000,
  ownOperationFields: ['freeSpaces'],
  filters: z.object({
    minFree: z.coerce.number().int().min(1).max(100_000).optional().describe('Only lots with at least this many free spaces'),
    vehicleType: z.enum(PARKING_VEHICLES).optional().describe('Only lots that take this vehicle'),
  }),
  keep: (lot, f) => lot.details.freeSpaces >= (f.minFree ?? 0) && (f.vehicleType === undefined || lot.details.pricesPerHour[f.vehicleType] !== undefined),
  check(d) {
    const bookable = Object.entries(d.bookableSpaces ?? {});
    for (const [type, count] of bookable) {
      if (d.pricesPerHour[type as (typeof PARKING_VEHICLES)[number]] === undefined)
        throw new ValidationError('a bookable vehicle type needs its price', [
          { field: `body.bookableSpaces.${type}`, message: 'price this vehicle type in pricesPerHour' },
        ]);
      if ((count ?? 0) > d.capacity)
        throw new ValidationError('bookable spaces cannot exceed capacity', [
          { field: `body.bookableSpaces.${type}`, message: `must be at most capacity (${d.capacity})` },
        ]);
    }
    if (d.freeSpaces > d.capacity)
      throw new ValidationError('freeSpaces cannot exceed capacity', [{ field: 'body.freeSpaces', message: `must be at most capacity (${d.capacity})` }]);
  },
});

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

export const parking = defineCatalogVertical(parkingCatalog, {
  deps: () => partnerCatalogDeps,
  routes: (lots) => ({
    after: [
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
    ],
  }),
});
export const parkingLots = parking.service;
