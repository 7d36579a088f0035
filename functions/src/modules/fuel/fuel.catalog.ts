import { z } from 'zod';
import { defineCatalog } from '../../platform/kits/catalog/catalog.spec';
import { ValidationError } from '../../platform/core/errors/app-error';
import { priceRange } from '../../platform/kits/money/money.schemas';
import { FUEL_STATIONS, FUEL_PRICE_CHANGES } from './fuel.collections';

export { FUEL_STATIONS, FUEL_PRICE_CHANGES };

export const FUEL_TYPES = ['RON95', 'E5', 'DIESEL'] as const;
export type FuelType = (typeof FUEL_TYPES)[number];
export const FUEL_SERVICES = ['CAR_WASH', 'AIR', 'TOILET', 'SHOP', 'EV_CHARGING'] as const;

const perLitre = priceRange(1_000, 200_000);
export const FuelPricesSchema = z
  .object({ RON95: perLitre.optional(), E5: perLitre.optional(), DIESEL: perLitre.optional() })
  .refine((p) => Object.values(p).some((v) => v !== undefined), 'price at least one fuel type')
  .meta({ id: 'FuelPrices', description: 'VND per litre by fuel type; a type the station does not sell is absent' });

const details = z.object({
  brand: z.string().trim().min(2).max(40).describe('Petrolimex, PVOIL, Mipec, Saigon Petro…'),
  prices: FuelPricesSchema.describe('Changed afterwards through PUT …/prices (kept in the price history)'),
  services: z.array(z.enum(FUEL_SERVICES)).max(FUEL_SERVICES.length).optional(),
});

export const fuelCatalog = defineCatalog({
  tag: 'fuel',
  collection: FUEL_STATIONS,
  basePath: '/fuel/stations',
  noun: 'fuel station',
  nouns: 'fuel stations',
  schemaName: 'FuelStation',
  pluralName: 'FuelStations',
  details,
  maxRadiusM: 20_000,
  ownOperationFields: ['prices'],
  filters: z.object({
    fuelType: z.enum(FUEL_TYPES).optional().describe('Only stations that sell it'),
    brand: z.string().trim().min(2).max(40).optional(),
    sort: z.enum(['distance', 'price']).optional().describe('price: cheapest fuelType first, then nearest (needs fuelType)'),
  }),
  keep: (station, f) =>
    (f.fuelType === undefined || station.details.prices[f.fuelType] !== undefined) &&
    (f.brand === undefined || station.details.brand.toLowerCase() === f.brand.toLowerCase()),
  rankBy(f) {
    if (f.sort !== 'price') return undefined;
    const type = f.fuelType;
    if (!type)
      throw new ValidationError('sort=price needs fuelType', [{ field: 'query.fuelType', message: 'is required with sort=price' }]).withCode(
        'FUEL_PRICE_TYPE_REQUIRED',
      );
    return (d) => d.prices[type];
  },
});

export interface PriceChangeRecord {
  stationId: string;
  before: Partial<Record<FuelType, number>>;
  after: Partial<Record<FuelType, number>>;
  by: string;
  at: number;
}
