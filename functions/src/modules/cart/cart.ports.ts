import type { Transaction } from 'firebase-admin/firestore';
import type { paymentCommands } from '../payments';
import type { LineRequest, PricedLine, Seller, SellerKind, SellerRef } from '../merchants';
import type { OrderDraft, OrderLineRequest } from '../orders';
import type { PromotionCommands } from '../promotions';

// What the cart needs from its neighbours, each shaped like the face that serves it, so that cart.wiring.ts binds
// faces to ports and tests bind doubles: the sellers (merchants module: stores and pharmacy
// stores, their menus and stock), the orders module, payments, promotions, media and saved addresses.

export type { LineRequest, PricedLine, Seller, SellerKind, SellerRef } from '../merchants';
export const SELLER_KINDS = ['MERCHANT', 'PHARMACY'] as const satisfies readonly SellerKind[];
export type LineOption = NonNullable<LineRequest['options']>[number];

/** The merchants module's `sellers` (the part the cart uses). */
export interface SellersPort {
  /** undefined: no such seller, or not ACTIVE. */
  get(ref: SellerRef, tx?: Transaction): Promise<Seller | undefined>;
  /** Prices lines from the menu now: 409 ITEM_UNAVAILABLE / OUT_OF_STOCK, 400 naming the field of a line (`lines.0.options.1.choices.0`). */
  quote(ref: SellerRef, lines: LineRequest[]): Promise<PricedLine[]>;
  /** In the caller's transaction: reads (and prices) first; `take()` then writes the stock decrements. */
  txTake(tx: Transaction, ref: SellerRef, lines: LineRequest[]): Promise<{ lines: PricedLine[]; take(): void }>;
}

export type { OrderDraft, OrderLineRequest, OrderPaymentMethod } from '../orders';
export type GatewayProvider = 'VNPAY' | 'MOMO' | 'MOCK';

/** The orders module's `orderCommands(config)`, and its `orderLinesFor` (reorder). */
export interface OrdersPort {
  /**
   * In the placing transaction, before its writes: the store read again (409 ORDER_SELLER_CLOSED, which checkout
   * answers as CART_SELLER_CLOSED) and the consumer's unconfirmed orders counted (409 ORDER_TOO_MANY_PENDING).
   */
  txCheckPlacing(tx: Transaction, draft: Pick<OrderDraft, 'consumerId' | 'seller'>): Promise<void>;
  /**
   * After all of the transaction's reads: writes the order (PLACED, or AWAITING_PAYMENT for an unpaid gateway payment).
   * Answers the order as its consumer reads it, built from what it wrote (undefined: read it with `view`).
   */
  txPlace(tx: Transaction, draft: OrderDraft): unknown;
  /** The order as its consumer reads it (GET /orders/{id}); undefined if none. */
  view(orderId: string, viewerId: string): Promise<unknown | undefined>;
  /** In the caller's transaction: whether an order with this id exists. */
  txExists(tx: Transaction, orderId: string): Promise<boolean>;
  /** The store and lines of one of the consumer's orders (any status); undefined when not theirs or none. */
  linesFor(orderId: string, consumerId: string): Promise<{ seller: SellerRef; lines: OrderLineRequest[] } | undefined>;
}

export type PaymentsPort = Pick<ReturnType<typeof paymentCommands>, 'hold' | 'txHold' | 'charge' | 'release' | 'refund' | 'get'>;
export type PromotionsPort = Pick<PromotionCommands, 'reserve' | 'releaseFor' | 'preview'>;

export interface MediaPort {
  /** One of the owner's READY image uploads; undefined otherwise (another's is as unknown as none). */
  attachableImage(ownerId: string, id: string): Promise<{ id: string; url: string } | undefined>;
}

export interface SavedAddress {
  id: string;
  address: string;
  lat: number;
  lng: number;
  contactName: string | null;
  contactPhone: string | null;
  driverNote: string | null;
}
export interface AddressesPort {
  /** One of the user's saved addresses; undefined for none (or another user's). */
  saved(userId: string, id: string): Promise<SavedAddress | undefined>;
}

export interface CartPorts {
  sellers: SellersPort;
  orders: OrdersPort;
  payments: PaymentsPort;
  promotions: PromotionsPort;
  media: MediaPort;
  addresses: AddressesPort;
}
