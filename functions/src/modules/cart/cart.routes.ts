import { z } from 'zod';
import { clientIp } from '../../platform/core/http/client-ip';
import { IdParamsSchema } from '../../platform/core/http/ids';
import type { AppContext } from '../../platform/core/http/module';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { CART_MAX_CARTS, CART_MAX_LINES } from './cart.config';
import type { SellerRef } from './cart.ports';
import {
  AddItemBodySchema,
  CartSchema,
  CheckoutBodySchema,
  CheckoutResultSchema,
  ClearedSchema,
  PatchItemBodySchema,
  QuoteBodySchema,
  QuoteSchema,
  ReorderBodySchema,
  ReorderResultSchema,
  SellerQuerySchema,
} from './cart.schemas';
import type { CartServices } from './cart.service';
import { cartServicesFor } from './cart.wiring';

const sellerOf = (q: { sellerKind?: SellerRef['kind']; sellerId?: string }): SellerRef | undefined =>
  q.sellerKind && q.sellerId ? { kind: q.sellerKind, id: q.sellerId } : undefined;

const PRICED = 'Every line is priced by the store now (name, price, options, availability): nothing priced is stored or taken from the client.';
const SELLER_CODES = 'The store’s own refusals pass through: 409 ITEM_UNAVAILABLE or OUT_OF_STOCK, 400 naming the option field it does not know.';

/** `services`: the cart over its ports as wired for the configuration (tests pass doubles of the neighbours). */
export function cartRoutes({ config }: AppContext, services: CartServices = cartServicesFor(config)): AnyRoute[] {
  const { cart, checkout } = services;
  const common = { tag: 'cart' as const, auth: [] as const, hat: 'CON' as const };
  return [
    defineRoute({
      ...common,
      method: 'get',
      path: '/cart',
      operationId: 'listCarts',
      summary: 'My carts (one per store), priced now',
      description: `All my carts, last changed first (at most ${CART_MAX_CARTS}); with sellerKind and sellerId, that store's cart only (empty when none). ${PRICED} Each cart lists its problems (a sold-out line, a store gone).`,
      request: { query: SellerQuerySchema },
      response: { description: 'The carts.', schema: z.object({ items: z.array(CartSchema) }) },
      handler: ({ auth, query }) => cart.list(auth!.userId, sellerOf(query)),
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: '/cart/items',
      operationId: 'addCartItem',
      summary: 'Add an item to my cart at a store',
      description: `Adds the item to my cart at that store (made on first use; at most ${CART_MAX_CARTS} carts, 409 CART_LIMIT). An identical line (same item, options and note) grows instead (at most 99 units, 422 CART_QUANTITY_LIMIT); at most ${CART_MAX_LINES} lines (409 CART_LINES_LIMIT). The store checks the item and options first. ${SELLER_CODES}`,
      idempotent: true,
      errors: [404],
      codes: ['CART_SELLER_NOT_FOUND', 'CART_LIMIT', 'CART_LINES_LIMIT', 'CART_QUANTITY_LIMIT', 'ITEM_UNAVAILABLE', 'OUT_OF_STOCK'],
      request: { body: AddItemBodySchema },
      response: { status: 201, description: 'The cart after the change.', schema: CartSchema },
      handler: ({ auth, body }) => cart.addItem(auth!.userId, body),
    }),
    defineRoute({
      ...common,
      method: 'patch',
      path: '/cart/items/:id',
      operationId: 'updateCartItem',
      summary: 'Change a line of my cart (quantity, options, note)',
      description: `A line made identical to another merges with it. Another user's line is 404. ${SELLER_CODES}`,
      errors: [404],
      codes: ['CART_SELLER_NOT_FOUND', 'CART_QUANTITY_LIMIT', 'ITEM_UNAVAILABLE', 'OUT_OF_STOCK'],
      request: { params: IdParamsSchema, body: PatchItemBodySchema },
      response: { description: 'The cart after the change.', schema: CartSchema },
      handler: ({ auth, params, body }) => cart.updateItem(auth!.userId, params.id, body),
    }),
    defineRoute({
      ...common,
      method: 'delete',
      path: '/cart/items/:id',
      operationId: 'removeCartItem',
      summary: 'Remove a line from my cart',
      description: 'The cart without the line (no line left: the cart is gone, and answered empty). Another user’s line is 404.',
      errors: [404],
      request: { params: IdParamsSchema },
      response: { description: 'The cart after the change.', schema: CartSchema },
      handler: ({ auth, params }) => cart.removeItem(auth!.userId, params.id),
    }),
    defineRoute({
      ...common,
      method: 'delete',
      path: '/cart',
      operationId: 'clearCarts',
      summary: 'Empty my cart at a store, or all my carts',
      description: 'With sellerKind and sellerId: that store’s cart; without: every cart of mine.',
      request: { query: SellerQuerySchema },
      response: { description: 'How many carts were emptied.', schema: ClearedSchema },
      handler: ({ auth, query }) => cart.clear(auth!.userId, sellerOf(query)),
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: '/cart/reorder',
      operationId: 'reorderCart',
      summary: 'Put the lines of one of my orders back in my cart at its store',
      description: `The order's lines (any status of the order) go back in my cart at that store, each checked and priced by the store now, never at the order's prices. Lines whose item or option is gone, turned off or sold out are skipped and listed in \`skipped\`. Reorder sets, it never adds: a line the cart holds already keeps the larger of the two quantities (at most 99), the cart's other lines stay, so reordering twice leaves the cart as reordering once. Another user's order or an unknown id is 404; a store no longer on the platform is 409 CART_SELLER_GONE (nothing written); a store paused or closed still gets the cart (its seller.accepting is false, and the quote names CART_SELLER_CLOSED). Limit: \`cart-reorder\`, 30 per user per 10 minutes.`,
      idempotent: true,
      rateLimit: { scope: 'cart-reorder', limit: 30, windowSec: 600, per: 'user' },
      errors: [404],
      codes: ['CART_SELLER_GONE', 'CART_LIMIT'],
      request: { body: ReorderBodySchema },
      response: { description: 'The cart at the order’s store as GET /cart shows it, and the lines skipped.', schema: ReorderResultSchema },
      handler: ({ auth, body }) => cart.reorder(auth!.userId, body.orderId),
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: '/cart/quote',
      operationId: 'quoteCart',
      summary: 'What checking out my cart at a store would charge now',
      description: `Lines priced by the store, the delivery fee by distance (with an address: base up to 2 km, then per km, rounded up to 1,000 ₫), the service fee, the voucher's discount, the total, and every problem checkout would refuse with (CART_EMPTY, ITEM_UNAVAILABLE, OUT_OF_STOCK, CART_SELLER_CLOSED, CART_OUT_OF_RANGE, CART_BELOW_MINIMUM, CART_PRESCRIPTION_REQUIRED, a voucher's code). Nothing is written or reserved. ${PRICED}`,
      errors: [404],
      codes: ['CART_SELLER_NOT_FOUND', 'CART_ADDRESS_NOT_FOUND'],
      request: { body: QuoteBodySchema },
      response: { description: 'The quote.', schema: QuoteSchema },
      handler: ({ auth, body }) => cart.quote(auth!.userId, body),
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: '/cart/checkout',
      operationId: 'checkoutCart',
      summary: 'Place an order from my cart at a store',
      description:
        'Money moves, so an Idempotency-Key is required: the order’s id is derived from it, and a retry with the same key answers the same order (one hold, one voucher use). The server prices the lines, fees, discount and total; the stock is taken in the transaction that places the order, so of two buyers of the last unit one gets the order and the other 409 OUT_OF_STOCK. WALLET holds the total (409 WALLET_INSUFFICIENT_FUNDS: nothing is kept, the voucher use is given back); GATEWAY answers a PENDING payment with its paymentUrl (the order waits for it, AWAITING_PAYMENT); CASH is paid to the courier. A consumer holds at most ORDERS_MAX_PENDING_PER_CONSUMER (5 by default) unconfirmed orders (AWAITING_PAYMENT or PLACED) at once: past it, 409 ORDER_TOO_MANY_PENDING, counted in the transaction that places the order, which also reads the store again (paused, closed or gone since the quote: 409 CART_SELLER_CLOSED, anything taken given back). Refused with nothing written or reserved: an empty cart, a store not taking orders, an address outside its delivery radius, items below its minimum, a line needing a prescription without one, a voucher over its limits (its PROMOTION_* code), and the store’s ITEM_UNAVAILABLE / OUT_OF_STOCK. Limit: `cart-checkout`, 30 per user per hour.',
      idempotent: 'required',
      claimBeside: true,
      rateLimit: { scope: 'cart-checkout', limit: 30, windowSec: 3600, per: 'user' },
      errors: [404, 422],
      codes: [
        'CART_SELLER_NOT_FOUND',
        'CART_ADDRESS_NOT_FOUND',
        'CART_EMPTY',
        'CART_SELLER_CLOSED',
        'CART_OUT_OF_RANGE',
        'CART_BELOW_MINIMUM',
        'CART_PRESCRIPTION_REQUIRED',
        'CART_PRESCRIPTION_INVALID',
        'CART_CHANGED',
        'CART_CHECKOUT_BUSY',
        'ORDER_TOO_MANY_PENDING',
        'ITEM_UNAVAILABLE',
        'OUT_OF_STOCK',
        'WALLET_INSUFFICIENT_FUNDS',
        'PROMOTION_NOT_FOUND',
        'PROMOTION_NOT_APPLICABLE',
        'PROMOTION_MIN_SPEND',
        'PROMOTION_USER_LIMIT',
        'PROMOTION_EXHAUSTED',
        'PAYMENT_GATEWAY_UNAVAILABLE',
      ],
      request: { body: CheckoutBodySchema },
      response: { status: 201, description: 'The order placed, with its payment.', schema: CheckoutResultSchema },
      handler: ({ auth, body, idempotencyKey, req, claimed, answerInCommit }) =>
        checkout.checkout(auth!.userId, idempotencyKey!, body, clientIp(req), { claimed: claimed!, answerInCommit }),
    }),
  ];
}
