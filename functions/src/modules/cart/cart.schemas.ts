import { z } from 'zod';
import { PhoneSchema } from '../../platform/core/http/contact';
import { DocumentIdSchema } from '../../platform/core/http/ids';
import { LatLngBodySchema } from '../../platform/kits/geo/geo';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';
import { CART_MAX_QUANTITY } from './cart.config';
import { SELLER_KINDS } from './cart.ports';
import { SKIP_REASONS } from './cart.reorder';

// Request bodies are strict: a price, a total or any field the server computes, sent by a client, is a 400 naming it.

const SellerKindSchema = z.enum(SELLER_KINDS).describe('MERCHANT: a food or grocery store; PHARMACY: a pharmacy store (map tab)');
export const SellerRefSchema = z
  .object({ kind: SellerKindSchema, id: DocumentIdSchema.describe('The store id') })
  .strict()
  .meta({ id: 'CartSellerRef', description: 'The store the cart is at: one cart per store.' });

const ItemKeySchema = DocumentIdSchema.describe('The menu item (or pharmacy product SKU) as the store lists it');
const QuantitySchema = z.number().int().min(1).max(CART_MAX_QUANTITY).describe(`Units, 1 to ${CART_MAX_QUANTITY}`);
const NoteSchema = z.string().trim().min(1).max(300).describe('For the store: "ít đá", "không hành"');
const OptionSchema = z
  .object({
    group: z.string().trim().min(1).max(100).describe('The option group’s key (size, toppings…)'),
    choices: z.array(z.string().trim().min(1).max(100)).min(1).max(20).describe('The chosen keys of that group'),
  })
  .strict()
  .meta({ id: 'CartLineOption' });
const OptionsSchema = z
  .array(OptionSchema)
  .max(20)
  .refine((groups) => new Set(groups.map((g) => g.group)).size === groups.length, { message: 'a group appears once' })
  .describe('Choices per option group; the store checks them against its menu (400 naming the field otherwise)');

export const AddItemBodySchema = z
  .object({ seller: SellerRefSchema, itemKey: ItemKeySchema, quantity: QuantitySchema, options: OptionsSchema.optional(), note: NoteSchema.optional() })
  .strict()
  .meta({ id: 'CartItemBody', description: 'What to add; prices come from the store’s menu (a price field is refused).' });

export const PatchItemBodySchema = z
  .object({ quantity: QuantitySchema.optional(), options: OptionsSchema.optional(), note: NoteSchema.nullable().optional() })
  .strict()
  .refine((p) => Object.values(p).some((v) => v !== undefined), { message: 'name at least one field to change' })
  .meta({ id: 'CartItemPatch', description: 'null clears the note; options replace the line’s options.' });

export const SellerQuerySchema = z
  .object({ sellerKind: SellerKindSchema.optional(), sellerId: DocumentIdSchema.optional().describe('With sellerKind: that store’s cart only') })
  .refine((q) => (q.sellerKind === undefined) === (q.sellerId === undefined), { message: 'sellerKind and sellerId go together', path: ['sellerId'] });

const AddressSchema = z
  .union([
    z.object({ addressId: DocumentIdSchema.describe('One of your saved addresses (GET /addresses)') }).strict(),
    z
      .object({
        location: LatLngBodySchema,
        address: z.string().trim().min(3).max(300).describe('The address line as the courier reads it'),
        recipientName: z.string().trim().min(1).max(80).optional(),
        phone: PhoneSchema.optional(),
        note: z.string().trim().min(1).max(300).optional().describe('For the courier: "gọi khi tới"'),
      })
      .strict(),
  ])
  .meta({ id: 'CartAddress', description: 'A saved address by its id, or one given with its location.' });

const VoucherCodeSchema = z
  .string()
  .trim()
  .min(3)
  .max(24)
  .regex(/^[A-Za-z0-9 ]+$/, 'letters, digits and spaces only')
  .describe('A voucher code (GET /promotions?vertical=ORDER); case and spaces ignored');
const PrescriptionSchema = DocumentIdSchema.describe('Your uploaded prescription image (POST /upload/image): required when a line needs a prescription');

export const QuoteBodySchema = z
  .object({
    seller: SellerRefSchema,
    address: AddressSchema.optional().describe('Without it, no delivery fee and no radius check'),
    voucherCode: VoucherCodeSchema.optional(),
    prescriptionMediaId: PrescriptionSchema.optional(),
  })
  .strict()
  .meta({ id: 'CartQuoteBody' });

const PaymentSchema = z
  .discriminatedUnion('method', [
    z.object({ method: z.literal('CASH') }).strict(),
    z.object({ method: z.literal('WALLET') }).strict(),
    z.object({ method: z.literal('GATEWAY'), provider: z.enum(['VNPAY', 'MOMO', 'MOCK']) }).strict(),
  ])
  .meta({ id: 'CartPayment', description: 'CASH on delivery; WALLET (held now, taken on delivery); GATEWAY (pay at paymentUrl).' });

export const CheckoutBodySchema = z
  .object({
    seller: SellerRefSchema,
    address: AddressSchema,
    payment: PaymentSchema,
    voucherCode: VoucherCodeSchema.optional(),
    prescriptionMediaId: PrescriptionSchema.optional(),
    note: NoteSchema.optional(),
  })
  .strict()
  .meta({ id: 'CartCheckoutBody', description: 'Lines, fees, discount and total are the server’s: any of them sent is refused (400).' });

const ProblemSchema = z
  .object({
    code: z.string().describe('The code checkout would answer (CART_EMPTY, OUT_OF_STOCK, CART_OUT_OF_RANGE…)'),
    message: z.string(),
    lineId: z.string().nullable().describe('The line concerned; null: the cart as a whole'),
    details: z.unknown(),
  })
  .meta({ id: 'CartProblem' });

const PricedOptionSchema = z.object({
  group: z.string(),
  groupName: z.string(),
  choices: z.array(z.object({ key: z.string(), name: z.string(), priceDeltaVnd: z.number().int() })),
});

export const CartLineSchema = z
  .object({
    id: z.string(),
    itemKey: z.string(),
    quantity: z.number().int(),
    options: z.array(z.object({ group: z.string(), choices: z.array(z.string()) })),
    note: z.string().nullable(),
    addedAt: IsoTimeSchema,
    priced: z
      .object({
        name: z.string(),
        unitPriceVnd: z.number().int(),
        lineTotalVnd: z.number().int(),
        options: z.array(PricedOptionSchema),
        requiresPrescription: z.boolean(),
      })
      .nullable()
      .describe('The line as the store prices it now; null when it cannot be ordered (see problem)'),
    problem: ProblemSchema.nullable(),
  })
  .meta({ id: 'CartLine' });

const CartSellerSchema = z.object({
  kind: SellerKindSchema,
  id: z.string(),
  name: z.string().nullable().describe('null: the store is gone'),
  accepting: z.boolean(),
  openNow: z.boolean(),
  minOrderVnd: z.number().int().nullable(),
});

export const CartSchema = z
  .object({
    id: z.string(),
    seller: CartSellerSchema,
    lines: z.array(CartLineSchema),
    itemCount: z.number().int(),
    itemsVnd: z.number().int().describe('The priced lines, now'),
    problems: z.array(ProblemSchema),
    revision: z.number().int(),
    createdAt: IsoTimeSchema,
    updatedAt: IsoTimeSchema,
  })
  .meta({ id: 'Cart' });

const PricingSchema = z
  .object({
    itemsVnd: z.number().int(),
    deliveryFeeVnd: z.number().int().nullable().describe('null: no address given'),
    serviceFeeVnd: z.number().int(),
    discountVnd: z.number().int(),
    totalVnd: z.number().int(),
  })
  .meta({ id: 'CartPricing' });

export const QuoteSchema = z
  .object({
    seller: CartSellerSchema,
    lines: z.array(CartLineSchema),
    distanceM: z.number().int().nullable(),
    pricing: PricingSchema,
    voucher: z.object({ code: z.string(), promotionId: z.string(), title: z.string(), discountVnd: z.number().int() }).nullable(),
    problems: z.array(ProblemSchema),
    canCheckout: z.boolean().describe('No problem, and an address given'),
  })
  .meta({ id: 'CartQuote' });

export const CheckoutResultSchema = z
  .object({
    order: z.looseObject({ id: z.string(), status: z.string() }).describe('The order as GET /orders/{id} shows it'),
    payment: z
      .object({
        id: z.string(),
        method: z.string(),
        provider: z.string().nullable(),
        status: z.string().describe('WALLET: AUTHORIZED (held until delivery); GATEWAY: PENDING until paid at paymentUrl'),
        amount: z.number().int(),
        paymentUrl: z.string().nullable(),
      })
      .nullable()
      .describe('null: cash on delivery'),
  })
  .meta({ id: 'CartCheckoutResult' });

export const ClearedSchema = z.object({ deleted: z.literal(true), carts: z.number().int().describe('Carts emptied') }).meta({ id: 'CartCleared' });

export const ReorderBodySchema = z
  .object({ orderId: DocumentIdSchema.describe('One of your orders (GET /orders), in any status') })
  .strict()
  .meta({ id: 'CartReorderBody' });

export const ReorderResultSchema = CartSchema.extend({
  skipped: z
    .array(
      z.object({
        itemKey: z.string(),
        name: z.string().describe('The name the line had in the order'),
        reason: z
          .enum(SKIP_REASONS)
          .describe(
            'ITEM_GONE: no longer on the menu; OPTIONS_CHANGED: an option of it is gone or a new one is required; ITEM_UNAVAILABLE: turned off now; OUT_OF_STOCK: not that many left; CART_LINES_LIMIT: the cart is full',
          ),
      }),
    )
    .describe('Lines of the order not put in the cart, and why'),
}).meta({ id: 'CartReorder' });
