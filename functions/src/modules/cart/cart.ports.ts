import type { Transaction } from 'firebase-admin/firestore';
import type { paymentCommands, PaymentStatus } from '../payments';
import type { LineRequest, PricedLine, Seller, SellerKind, SellerRef } from '../merchants';
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

export type OrderPaymentMethod = 'CASH' | 'WALLET' | 'GATEWAY';
export type GatewayProvider = 'VNPAY' | 'MOMO' | 'MOCK';

export interface OrderDraft {
  /** Chosen by checkout: stableId of (caller, Idempotency-Key), so a retry names the same order. */
  id: string;
  consumerId: string;
  seller: SellerRef;
  partnerId: string;
  sellerName: string;
  pickup: { lat: number; lng: number; address: string };
  dropoff: {
    lat: number;
    lng: number;
    address: string;
    recipientName: string | null;
    phone: string | null;
    note: string | null;
    addressId: string | null;
  };
  distanceM: number;
  lines: PricedLine[];
  pricing: { itemsVnd: number; deliveryFeeVnd: number; serviceFeeVnd: number; discountVnd: number; totalVnd: number };
  voucher: { code: string; redemptionId: string; promotionId: string } | null;
  /**
   * WALLET: AUTHORIZED (held); CASH: collected on delivery; GATEWAY: PENDING until the gateway pays. `status` (added to
   * the contract): the payment's status when the order is placed (a MOCK gateway has paid already: PLACED at once).
   */
  payment: { method: OrderPaymentMethod; provider: GatewayProvider | null; paymentId: string | null; status: PaymentStatus | null };
  prescriptionMediaId: string | null;
  note: string | null;
  prepTimeMin: number;
  /** Epoch ms. */
  at: number;
}

/** The orders module's `orderCommands(config)`. */
export interface OrdersPort {
  /** After all of the transaction's reads: writes the order (PLACED, or AWAITING_PAYMENT for an unpaid gateway payment). */
  txPlace(tx: Transaction, draft: OrderDraft): void;
  /** The order as its consumer reads it (GET /orders/{id}); undefined if none. */
  view(orderId: string, viewerId: string): Promise<unknown | undefined>;
  /** In the caller's transaction: whether an order with this id exists. */
  txExists(tx: Transaction, orderId: string): Promise<boolean>;
}

export type PaymentsPort = Pick<ReturnType<typeof paymentCommands>, 'hold' | 'charge' | 'release' | 'refund' | 'get'>;
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
