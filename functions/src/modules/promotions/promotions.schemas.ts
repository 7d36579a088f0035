import { z } from 'zod';
import { PageQuerySchema } from '../../platform/kits/firestore/paginate';
import { DocumentIdSchema } from '../../platform/core/http/ids';
import { DISCOUNT_KINDS, PAYABLE_KINDS, PROMOTION_VERTICALS } from './promotions.model';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';
import { vnd } from '../../platform/kits/money/money';
import { priceRange } from '../../platform/kits/money/money.schemas';

const CodeSchema = z
  .string()
  .trim()
  .min(3)
  .max(24)
  .regex(/^[A-Za-z0-9 ]+$/, 'letters, digits and spaces only')
  .describe('Case and spaces ignored: "tet 2027" = TET2027');
const VerticalSchema = z.enum(PROMOTION_VERTICALS).meta({ id: 'PromotionVertical' });

export const PromotionBodySchema = z
  .object({
    partnerId: DocumentIdSchema.optional().describe('Your partner (its sales only). Omitted: a platform voucher (ADMIN only).'),
    code: CodeSchema,
    title: z.string().trim().min(3).max(120),
    description: z.string().trim().min(1).max(1000).optional(),
    kind: z.enum(DISCOUNT_KINDS),
    value: z.number().int().min(1).max(10_000_000).describe('PERCENT: 1–100; FIXED: VND off'),
    maxDiscount: priceRange(0, 10_000_000).optional().describe('Cap of a PERCENT discount, VND'),
    minSpend: priceRange(0, 1_000_000_000).default(vnd(0)).describe('Smallest amount it applies to, VND'),
    startsAt: z.iso.datetime({ offset: true }),
    endsAt: z.iso.datetime({ offset: true }),
    perUserLimit: z.number().int().min(1).max(100).default(1),
    totalLimit: z.number().int().min(1).max(1_000_000).optional().describe('Uses in all; omitted: unlimited. Cannot change later.'),
    verticals: z.array(VerticalSchema).min(1).max(PROMOTION_VERTICALS.length).describe('What it applies to'),
  })
  .refine((b) => b.kind !== 'PERCENT' || b.value <= 100, { message: 'a PERCENT value is 1 to 100', path: ['value'] })
  .refine((b) => Date.parse(b.endsAt) > Date.parse(b.startsAt), { message: 'must be after startsAt', path: ['endsAt'] })
  .meta({ id: 'PromotionBody' });

export const PromotionPatchSchema = z
  .object({
    title: z.string().trim().min(3).max(120).optional(),
    description: z.string().trim().min(1).max(1000).nullable().optional(),
    endsAt: z.iso.datetime({ offset: true }).optional(),
    status: z.enum(['ACTIVE', 'INACTIVE']).optional().describe('INACTIVE: nobody can use it (uses already made stand)'),
    minSpend: priceRange(0, 1_000_000_000).optional(),
    maxDiscount: priceRange(0, 10_000_000).nullable().optional(),
    perUserLimit: z.number().int().min(1).max(100).optional(),
  })
  .refine((p) => Object.values(p).some((v) => v !== undefined), { message: 'name at least one field to change' })
  .meta({ id: 'PromotionPatch' });

export const PromotionSchema = z
  .object({
    id: z.string(),
    code: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    kind: z.enum(DISCOUNT_KINDS),
    value: z.number().int(),
    maxDiscount: z.number().int().nullable(),
    minSpend: z.number().int(),
    startsAt: IsoTimeSchema,
    endsAt: IsoTimeSchema,
    perUserLimit: z.number().int(),
    totalLimit: z.number().int().nullable(),
    verticals: z.array(VerticalSchema),
    partnerId: z.string().nullable(),
    status: z.enum(['ACTIVE', 'INACTIVE']),
  })
  .meta({ id: 'Promotion' });

export const AvailablePromotionSchema = PromotionSchema.extend({ usesLeftForMe: z.number().int() }).meta({ id: 'AvailablePromotion' });
export const ManagedPromotionSchema = PromotionSchema.extend({
  stats: z.object({ redeemed: z.number().int(), remaining: z.number().int().nullable().describe('null: unlimited') }),
  createdAt: IsoTimeSchema,
}).meta({ id: 'ManagedPromotion' });

const PurchaseSchema = {
  code: CodeSchema,
  vertical: VerticalSchema,
  amount: z.number().int().min(1).max(1_000_000_000).describe('The purchase before the discount, VND'),
  partnerId: DocumentIdSchema.optional().describe('The seller’s partner (a partner voucher applies to its own sales only)'),
};
export const ValidateBodySchema = z.object(PurchaseSchema).meta({ id: 'PromotionValidateBody' });
export const PayableRefSchema = z
  .object({
    kind: z
      .enum(PAYABLE_KINDS)
      .describe(
        'RIDE: one of your rides. ORDER and BOOKING plug in the same way when their modules expose a payable (owner, amount, seller, cancelled or refunded) on their public face.',
      ),
    id: DocumentIdSchema.describe('The ride id'),
  })
  .strict()
  .meta({
    id: 'PromotionPayable',
    description:
      'What the voucher is used on. The amount, the seller and the owner are the server’s (the ride’s fare as the server knows it: its final fare, or the quote before it ends); the caller must own it.',
  });
export const RedeemBodySchema = z.object({ code: CodeSchema, payable: PayableRefSchema }).strict().meta({
  id: 'PromotionRedeemBody',
  description: 'Only the code and the payable: an amount, partnerId, vertical or reference sent by the client is refused (400).',
});

export const DiscountSchema = z
  .object({ promotionId: z.string(), code: z.string(), title: z.string(), amount: z.number().int(), discount: z.number().int(), finalAmount: z.number().int() })
  .meta({ id: 'PromotionDiscount' });

export const RedemptionSchema = z
  .object({
    id: z.string(),
    promotionId: z.string(),
    code: z.string(),
    vertical: VerticalSchema,
    amount: z.number().int(),
    discount: z.number().int(),
    finalAmount: z.number().int(),
    reference: z.string(),
    payable: PayableRefSchema.nullable().describe(
      'null: a use taken at checkout for an order (reference `ORDER:<orderId>`, given back by the system), or before uses were bound to payables',
    ),
    status: z.enum(['REDEEMED', 'RELEASED']),
    createdAt: IsoTimeSchema,
    releasedAt: IsoTimeSchema.nullable(),
  })
  .meta({ id: 'PromotionRedemption' });

export const AvailableQuerySchema = z.object({ vertical: VerticalSchema.optional() });
export const ManageListQuerySchema = PageQuerySchema.extend({ partnerId: DocumentIdSchema.optional().describe('Required unless you are an administrator') });
