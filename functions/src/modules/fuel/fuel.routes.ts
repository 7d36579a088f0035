import { z } from 'zod';
import { holdsPermission } from '../../platform/core/auth/roles';
import { CATALOG_ADMIN_PATH, catalogRoutes, catalogSchemas } from '../../platform/kits/catalog/catalog.routes';
import { PageQuerySchema } from '../../platform/kits/firestore/paginate';
import type { AppContext } from '../../platform/core/http/module';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { IdParamsSchema } from '../../platform/core/http/ids';
import { iso } from '../../platform/kits/time/time';
import { FuelPricesSchema, fuelCatalog } from './fuel.catalog';
import { fuelRepo } from './fuel.repo';
import { fuelStations } from './fuel.wiring';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';

const PriceChangeSchema = z
  .object({
    before: z.record(z.string(), z.number()),
    after: z.record(z.string(), z.number()),
    by: z.string().optional().describe('Who changed it: only for the station’s managers and administrators with catalog.manage (never public)'),
    at: IsoTimeSchema,
  })
  .meta({ id: 'FuelPriceChange' });

export function fuelRoutes(ctx: AppContext): AnyRoute[] {
  const stations = fuelStations();
  return [
    ...catalogRoutes(stations, ctx.config),
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
  ];
}
