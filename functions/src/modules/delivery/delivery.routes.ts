import type { AppConfig } from '../../platform/core/config';
import { IdParamsSchema } from '../../platform/core/http/ids';
import type { AppContext } from '../../platform/core/http/module';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { deliverySettings } from './delivery.config';
import { deliveryAdminRoutes } from './delivery.admin.routes';
import { deliveryDriverRoutes } from './delivery.driver.routes';
import { LIMITS, MOVE_CODES, TAG as tag, type DeliveryServiceOf } from './delivery.http';
import { PARCEL_SIZE_LIMITS, PARCEL_SIZES } from './delivery.model';
import {
  CancelDeliveryBodySchema,
  DeliveryListSchema,
  DeliveryQuoteBodySchema,
  DeliveryQuoteSchema,
  DeliveryRatingSchema,
  DeliverySchema,
  DeliveryTariffSchema,
  MyDeliveriesQuerySchema,
  PlaceDeliveryBodySchema,
  RateDeliveryBodySchema,
} from './delivery.schemas';
import { deliveryViewerOf } from './delivery.service';
import { deliveryServiceFor } from './delivery.wiring';

// The parcel delivery API (tag `orders`): the sender's routes here, the driver's and the administrators' in their files.
export function deliveryRoutes(ctx: AppContext, service: DeliveryServiceOf = () => deliveryServiceFor(ctx.config)): AnyRoute[] {
  return [...deliveryAdminRoutes(service), ...deliverySenderRoutes(service, ctx.config), ...deliveryDriverRoutes(service)];
}

function tariff(config: Readonly<AppConfig>) {
  const s = deliverySettings(config);
  return {
    currency: 'VND' as const,
    baseFeeVnd: s.baseFeeVnd,
    baseKm: s.baseKm,
    perKmVnd: s.perKmVnd,
    roadFactor: s.roadFactorBp / 10_000,
    codFeeVnd: s.codFeeVnd,
    codMaxVnd: s.codMaxVnd,
    minDistanceM: s.minDistanceM,
    maxDistanceM: s.maxDistanceM,
    quoteTtlSec: s.quoteTtlSec,
    cancelFeeVnd: s.cancelFeeVnd,
    noDriverWindowSec: s.noDriverWindowSec,
    sizes: PARCEL_SIZES.map((size) => ({
      size,
      multiplier: s.sizeMultiplierBp[size] / 10_000,
      maxWeightKg: PARCEL_SIZE_LIMITS[size].maxWeightKg,
      maxDimensionsCm: [...PARCEL_SIZE_LIMITS[size].maxDimensionsCm],
      examples: PARCEL_SIZE_LIMITS[size].examples,
    })),
  };
}

export function deliverySenderRoutes(service: DeliveryServiceOf, config: Readonly<AppConfig>): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/delivery/tariff',
      operationId: 'getDeliveryTariff',
      tag,
      summary: 'The parcel tariff: base fee, per km, sizes (weight and dimensions) and their multipliers',
      auth: [],
      response: { description: 'Fees in VND.', schema: DeliveryTariffSchema },
      handler: () => tariff(config),
    }),
    defineRoute({
      method: 'post',
      path: '/delivery/quote',
      operationId: 'quoteDelivery',
      tag,
      summary: 'The fee to send a parcel from A to B, valid 10 minutes',
      description:
        'Road distance (straight line × 1.35), the base fee for the first 2 km and 5,000 VND a km after, × the size’s multiplier, rounded up to 1,000 VND; 5,000 VND more with cash on delivery. The signed `quoteId` fixes the fee, points, size and cash on delivery. 422 DELIVERY_DISTANCE outside 100 m to 50 km. Limit: `delivery-quote`, 60 per user a minute.',
      auth: [],
      hat: 'CON',
      rateLimit: LIMITS.quote,
      errors: [422],
      codes: ['DELIVERY_DISTANCE'],
      request: { body: DeliveryQuoteBodySchema },
      response: { description: 'The quote.', schema: DeliveryQuoteSchema },
      handler: ({ auth, body }) => service().quote(auth!.userId, body),
    }),
    defineRoute({
      method: 'post',
      path: '/delivery/orders',
      operationId: 'placeDelivery',
      tag,
      summary: 'Send a parcel: from a quote, with the recipient and payment; the nearest free driver is searched at once',
      description:
        'Requires an Idempotency-Key (money is held): a retry answers the same parcel. WALLET holds the fee until delivery (409 WALLET_INSUFFICIENT_FUNDS, nothing placed); CASH is paid to the driver at pickup. The answer is CREATED (searched again every 30 s) or DRIVER_ASSIGNED; nobody taking it within 10 minutes ends it NO_DRIVER and gives the hold back. The sender reads the pickup code (for the driver) and the drop-off code (for the recipient). Limit: `delivery-place`, 10 per user per 10 minutes.',
      auth: [],
      hat: 'CON',
      idempotent: 'required',
      rateLimit: LIMITS.place,
      errors: [409, 422],
      codes: ['DELIVERY_QUOTE_INVALID', 'DELIVERY_QUOTE_EXPIRED', 'WALLET_INSUFFICIENT_FUNDS'],
      request: { body: PlaceDeliveryBodySchema },
      response: { status: 201, description: 'The parcel (201; 200 for a replayed retry).', schema: DeliverySchema },
      handler: async ({ auth, body, idempotencyKey, status }) => {
        const { delivery, created } = await service().place(auth!.userId, body, idempotencyKey!);
        if (!created) status(200);
        return delivery;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/delivery/orders',
      operationId: 'listMyDeliveries',
      tag,
      summary: 'My parcels, newest first: those I sent, or (as=DRIVER) those I carried',
      auth: [],
      request: { query: MyDeliveriesQuerySchema },
      response: { description: 'A page of parcels.', schema: DeliveryListSchema },
      handler: ({ auth, query }) => service().list(auth!.userId, query.as, query),
    }),
    defineRoute({
      method: 'get',
      path: '/delivery/orders/:id',
      operationId: 'getDelivery',
      tag,
      summary: 'A parcel (its sender, its driver, or ADMIN with delivery.manage; 404 for anyone else)',
      auth: [],
      errors: [404],
      request: { params: IdParamsSchema },
      response: { description: 'The parcel as the caller sees it (codes: the sender only).', schema: DeliverySchema },
      handler: ({ auth, params }) => service().get(deliveryViewerOf(auth!), params.id),
    }),
    defineRoute({
      method: 'post',
      path: '/delivery/orders/:id/cancel',
      operationId: 'cancelDelivery',
      tag,
      summary: 'Sender: cancel before pickup (free before a driver is assigned, 10,000 VND to the driver after)',
      description:
        'CREATED or DRIVER_ASSIGNED → CANCELLED; the driver is freed. The fee after assignment (at most the delivery fee) is taken from the WALLET hold, or from the wallet of a CASH sender who holds it; the rest of the hold goes back. Limit: `delivery-cancel`, 10 per user per 10 minutes.',
      auth: [],
      rateLimit: LIMITS.cancel,
      errors: [404, 409],
      codes: [...MOVE_CODES],
      request: { params: IdParamsSchema, body: CancelDeliveryBodySchema },
      response: { description: 'The CANCELLED parcel.', schema: DeliverySchema },
      handler: ({ auth, params, body }) => service().cancel(auth!.userId, params.id, body.reason ?? null),
    }),
    defineRoute({
      method: 'post',
      path: '/delivery/orders/:id/rate',
      operationId: 'rateDeliveryDriver',
      tag,
      summary: 'Sender: rate the driver of a delivered parcel, once (1–5 stars; never shown to the driver)',
      auth: [],
      errors: [404, 409],
      codes: ['DELIVERY_ALREADY_RATED', 'DELIVERY_RATING_WINDOW', 'DELIVERY_NOT_ALLOWED'],
      request: { params: IdParamsSchema, body: RateDeliveryBodySchema },
      response: { status: 201, description: 'The rating.', schema: DeliveryRatingSchema },
      handler: ({ auth, params, body }) => service().rate(auth!.userId, params.id, body),
    }),
  ];
}
