import { z } from 'zod';
import { PageQuerySchema } from '../../platform/kits/firestore/paginate';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { IdParamsSchema } from '../../platform/core/http/ids';
import type { AppContext } from '../../platform/core/http/module';
import { partnerRoleOf } from '../partners';
import { ridePayable } from '../rides';
import {
  AvailablePromotionSchema,
  AvailableQuerySchema,
  DiscountSchema,
  ManagedPromotionSchema,
  ManageListQuerySchema,
  PromotionBodySchema,
  PromotionPatchSchema,
  RedeemBodySchema,
  RedemptionSchema,
  ValidateBodySchema,
} from './promotions.schemas';
import { createPromotionsService } from './promotions.service';

const PURCHASE_CODES = [
  'PROMOTION_NOT_FOUND',
  'PROMOTION_NOT_STARTED',
  'PROMOTION_EXPIRED',
  'PROMOTION_NOT_APPLICABLE',
  'PROMOTION_MIN_SPEND',
  'PROMOTION_USER_LIMIT',
  'PROMOTION_EXHAUSTED',
] as const;
const MANAGERS = ['PARTNER_OWNER', 'PARTNER_STAFF', 'ADMIN'] as const;
const ADMIN_PATH = 'Administrators (platform vouchers, any partner’s) need the permission promotions.manage (403 PERMISSION_REQUIRED otherwise).';

export function promotionsRoutes({ config }: AppContext): AnyRoute[] {
  const promotions = createPromotionsService({
    partnerRole: (partnerId, userId) => partnerRoleOf(partnerId, userId),
    // Rides are the payables today; orders and bookings join here through their modules' public faces.
    payable: (ref) => ridePayable(config, ref.id),
  });
  const tag = 'promotions' as const;
  return [
    defineRoute({
      method: 'get',
      path: '/promotions',
      operationId: 'listAvailablePromotions',
      tag,
      summary: 'Vouchers I can use now',
      description:
        'Active, started, not ended, with uses left for me and in all; ending soonest first. Partner vouchers apply to that partner’s sales only (partnerId).',
      auth: [],
      hat: 'CON',
      request: { query: AvailableQuerySchema },
      response: { description: 'The vouchers.', schema: z.object({ items: z.array(AvailablePromotionSchema) }) },
      handler: async ({ auth, query }) => ({ items: await promotions.available(auth!.userId, query.vertical) }),
    }),
    defineRoute({
      method: 'post',
      path: '/promotions/validate',
      operationId: 'validatePromotion',
      tag,
      summary: 'What a voucher takes off a purchase (nothing is used)',
      auth: [],
      hat: 'CON',
      errors: [404],
      codes: [...PURCHASE_CODES],
      request: { body: ValidateBodySchema },
      response: { description: 'The discount and the amount to pay.', schema: DiscountSchema },
      handler: ({ auth, body }) => promotions.validate(auth!.userId, body),
    }),
    defineRoute({
      method: 'post',
      path: '/promotions/redeem',
      operationId: 'redeemPromotion',
      tag,
      summary: 'Use a voucher on one of my rides',
      description:
        'Takes one use on a payable of yours (payable.kind RIDE: one of your rides; orders and bookings will plug in as further kinds): the amount is the ride’s fare as the server knows it and rides have no seller, so only platform vouchers apply. Someone else’s ride is 404 PROMOTION_PAYABLE_NOT_FOUND; a cancelled or refunded one 409 PROMOTION_PAYABLE_CLOSED; a completed (paid) one 409 PROMOTION_PAYABLE_SETTLED; one that already carries another voucher 409 PROMOTION_PAYABLE_TAKEN (one voucher per payable). Min-spend is checked against the server’s amount. Atomic with the total and per-user limits (the last uses go to exactly as many people). One use per voucher and payable: the same payable answers the same redemption. 503 CONTENDED when very many redeem the same voucher at once: retry.',
      auth: [],
      hat: 'CON',
      idempotent: true,
      errors: [404],
      codes: [
        ...PURCHASE_CODES,
        'CONTENDED',
        'PROMOTION_PAYABLE_NOT_FOUND',
        'PROMOTION_PAYABLE_CLOSED',
        'PROMOTION_PAYABLE_TAKEN',
        'PROMOTION_PAYABLE_SETTLED',
      ],
      request: { body: RedeemBodySchema },
      response: { status: 201, description: 'The redemption.', schema: RedemptionSchema },
      handler: ({ auth, body }) => promotions.redeem(auth!.userId, body),
    }),
    defineRoute({
      method: 'get',
      path: '/promotions/redemptions',
      operationId: 'listMyRedemptions',
      tag,
      summary: 'Vouchers I used',
      auth: [],
      hat: 'CON',
      request: { query: PageQuerySchema },
      response: { description: 'Newest first.', schema: z.object({ items: z.array(RedemptionSchema), nextCursor: z.string().nullable() }) },
      handler: ({ auth, query }) => promotions.myRedemptions(auth!.userId, query),
    }),
    defineRoute({
      method: 'delete',
      path: '/promotions/redemptions/:id',
      operationId: 'releaseRedemption',
      tag,
      summary: 'Give a use back (the ride was cancelled or refunded)',
      description:
        'Only once what the use was bound to is cancelled (or never served) or fully refunded, as the server knows it: otherwise 409 PROMOTION_RELEASE_REFUSED (an active or completed ride keeps its use; so does a partially refunded one, whose discount was still given). The payable is then free for another voucher. The use returns to the voucher and to my count. Idempotent: a released redemption stays released.',
      auth: [],
      hat: 'CON',
      errors: [404],
      codes: ['PROMOTION_RELEASE_REFUSED'],
      request: { params: IdParamsSchema },
      response: { description: 'The redemption, RELEASED.', schema: RedemptionSchema },
      handler: ({ auth, params }) => promotions.release(auth!.userId, params.id),
    }),
    defineRoute({
      method: 'post',
      path: '/promotions/manage',
      operationId: 'createPromotion',
      tag,
      summary: 'Create a voucher',
      description: `A partner’s owner or staff for their partner (partnerId), or an administrator for a platform voucher. Codes are unique (case and spaces ignored). ${ADMIN_PATH}`,
      auth: [...MANAGERS],
      permission: 'promotions.manage',
      idempotent: true,
      codes: ['PROMOTION_NOT_MANAGER', 'PERMISSION_REQUIRED', 'PROMOTION_CODE_TAKEN'],
      request: { body: PromotionBodySchema },
      response: { status: 201, description: 'The voucher with its figures.', schema: ManagedPromotionSchema },
      handler: ({ auth, body }) => promotions.create(auth!, body),
    }),
    defineRoute({
      method: 'get',
      path: '/promotions/manage',
      operationId: 'listManagedPromotions',
      tag,
      summary: 'Vouchers I manage',
      description: ADMIN_PATH,
      auth: [...MANAGERS],
      permission: 'promotions.manage',
      codes: ['PROMOTION_NOT_MANAGER', 'PERMISSION_REQUIRED'],
      request: { query: ManageListQuerySchema },
      response: { description: 'Newest first, with figures.', schema: z.object({ items: z.array(ManagedPromotionSchema), nextCursor: z.string().nullable() }) },
      handler: ({ auth, query }) => promotions.list(auth!, query),
    }),
    defineRoute({
      method: 'get',
      path: '/promotions/manage/:id',
      operationId: 'getManagedPromotion',
      tag,
      summary: 'One voucher I manage, with uses made and left',
      description: ADMIN_PATH,
      auth: [...MANAGERS],
      permission: 'promotions.manage',
      errors: [404],
      codes: ['PROMOTION_NOT_MANAGER', 'PERMISSION_REQUIRED'],
      request: { params: IdParamsSchema },
      response: { description: 'The voucher.', schema: ManagedPromotionSchema },
      handler: ({ auth, params }) => promotions.get(auth!, params.id),
    }),
    defineRoute({
      method: 'patch',
      path: '/promotions/manage/:id',
      operationId: 'updatePromotion',
      tag,
      summary: 'Change a voucher (end date, status, terms)',
      description: `Code, discount and total uses do not change (make a new voucher). ${ADMIN_PATH}`,
      auth: [...MANAGERS],
      permission: 'promotions.manage',
      errors: [404],
      codes: ['PROMOTION_NOT_MANAGER', 'PERMISSION_REQUIRED'],
      request: { params: IdParamsSchema, body: PromotionPatchSchema },
      response: { description: 'The voucher after the change.', schema: ManagedPromotionSchema },
      handler: ({ auth, params, body }) => promotions.update(auth!, params.id, body),
    }),
  ];
}
