import type { Transaction } from 'firebase-admin/firestore';
import { z } from 'zod';
import { holdsPermission } from '../../platform/core/auth/roles';
import { ValidationError } from '../../platform/core/errors/app-error';
import { IdParamsSchema } from '../../platform/core/http/ids';
import { defineRoute } from '../../platform/core/http/route';
import { CATALOG_ADMIN_PATH, catalogSchemas } from '../../platform/kits/catalog/catalog.routes';
import { defineCatalog } from '../../platform/kits/catalog/catalog.spec';
import { defineCatalogVertical } from '../../platform/kits/catalog/catalog.vertical';
import { paginate, PageQuerySchema, type PageRequest } from '../../platform/kits/firestore/paginate';
import { plainCollection } from '../../platform/kits/firestore/records';
import { priceRange } from '../../platform/kits/money/money.schemas';
import { iso } from '../../platform/kits/time/time';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';
import { partnerCatalogDeps } from '../partners';
import { FUEL_STATIONS, FUEL_PRICE_CHANGES } from './fuel.collections';

// Fuel stations on the map: brand, prices per fuel type (their own operation, kept in a price history), services.

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

const changes = () => plainCollection<PriceChangeRecord>(FUEL_PRICE_CHANGES);

export const fuelRepo = {
  recordPriceChange(tx: Transaction, change: PriceChangeRecord): void {
    tx.create(changes().doc(), change);
  },
  /** Newest first; index (stationId, at desc). */
  priceHistory: (stationId: string, request: PageRequest) =>
    paginate(changes().where('stationId', '==', stationId), [{ field: 'at', direction: 'desc' }], request, (d) => d.data()),
};

const PriceChangeSchema = z
  .object({
    before: z.record(z.string(), z.number()),
    after: z.record(z.string(), z.number()),
    by: z.string().optional().describe('Who changed it: only for the station’s managers and administrators with catalog.manage (never public)'),
    at: IsoTimeSchema,
  })
  .meta({ id: 'FuelPriceChange' });

export const fuel = defineCatalogVertical(fuelCatalog, {
  deps: () => partnerCatalogDeps,
  routes: (stations) => ({
    after: [
      defineRoute({
        method: 'put',
        path: '/fuel/stations/:id/prices',
        operationId: 'setFuelPrices',
        tag: 'fuel',
        summary: 'Set the fuel prices of a station',
        description: `By the station’s managers or an administrator (national price adjustments). Replaces the price list; the change goes to the price history in the same transaction. ${CATALOG_ADMIN_PATH}`,
        auth: ['PARTNER_OWNER', 'PARTNER_STAFF', 'ADMIN'],
        permission: 'catalog.manage',
        errors: [404],
        codes: ['CATALOG_NOT_MANAGER', 'CATALOG_TRANSITION', 'PERMISSION_REQUIRED'],
        request: { params: IdParamsSchema, body: z.object({ prices: FuelPricesSchema }).meta({ id: 'FuelPricesBody' }) },
        response: { description: 'The station with its new prices.', schema: catalogSchemas(fuelCatalog).view },
        handler: ({ params, body, auth }) =>
          stations.changeDetails(
            params.id,
            auth!,
            (station, tx, at) => {
              fuelRepo.recordPriceChange(tx, { stationId: station.id, before: station.details.prices, after: body.prices, by: auth!.userId, at });
              return { prices: body.prices };
            },
            { adminsToo: true },
          ),
      }),
      defineRoute({
        method: 'get',
        path: '/fuel/stations/:id/prices/history',
        operationId: 'listFuelPriceHistory',
        tag: 'fuel',
        summary: 'Price history of a station',
        description:
          'Public: the prices before and after, and when. Who made each change is shown only to the station’s managers (their own staff’s account ids; `ADMIN` for an administrator’s change) and to administrators with catalog.manage (every account id).',
        auth: [],
        errors: [404],
        request: { params: IdParamsSchema, query: PageQuerySchema },
        response: { description: 'Newest change first.', schema: z.object({ items: z.array(PriceChangeSchema), nextCursor: z.string().nullable() }) },
        handler: async ({ params, query, auth }) => {
          await stations.get(params.id, auth!); // 404 unless visible to the caller
          const staffView =
            (auth!.roles.includes('ADMIN') && holdsPermission(auth!.permissions, 'catalog.manage')) || (await stations.isManagedBy(params.id, auth!));
          const page = await fuelRepo.priceHistory(params.id, { ...query, query: `fuel:history:${params.id}`, caller: auth!.userId });
          // Managers see their own staff's ids; an administrator's change shows as ADMIN (only admins see who).
          const by = staffView
            ? await stations.actorLabels(
                (await stations.getRecord(params.id))!,
                auth!,
                page.items.map((c) => c.by),
              )
            : undefined;
          return {
            items: page.items.map((c) => ({ before: c.before, after: c.after, ...(by ? { by: by(c.by) } : {}), at: iso(c.at) })),
            nextCursor: page.nextCursor,
          };
        },
      }),
    ],
  }),
});
export const fuelStations = fuel.service;
