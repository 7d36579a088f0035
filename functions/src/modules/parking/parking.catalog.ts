import { z } from 'zod';
import { defineCatalog } from '../../platform/kits/catalog/catalog.spec';
import { ValidationError } from '../../platform/core/errors/app-error';
import { priceRange } from '../../platform/kits/money/money.schemas';
import { PARKING_LOTS } from './parking.collections';

export { PARKING_LOTS };

export const PARKING_VEHICLES = ['MOTORBIKE', 'CAR', 'BICYCLE'] as const;

const vnd = priceRange(0, 10_000_000); // per hour; 0: free
const details = z.object({
  capacity: z.number().int().min(1).max(100_000).describe('Spaces in all'),
  freeSpaces: z.number().int().min(0).max(100_000).describe('Free now; changed afterwards through PUT …/availability'),
  pricesPerHour: z
    .object({ MOTORBIKE: vnd.optional(), CAR: vnd.optional(), BICYCLE: vnd.optional() })
    .refine((p) => Object.values(p).some((v) => v !== undefined), 'price at least one vehicle type')
    .describe('VND per hour by vehicle type; a type without a price is not accepted here'),
  covered: z.boolean().optional(),
  evCharging: z.boolean().optional(),
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
    if (d.freeSpaces > d.capacity)
      throw new ValidationError('freeSpaces cannot exceed capacity', [{ field: 'body.freeSpaces', message: `must be at most capacity (${d.capacity})` }]);
  },
});
