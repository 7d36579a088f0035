// Public face of the merchants module: its catalog (favorites and reviews check references through it) and the
// sellers face, what cart, checkout and orders sell through: this module's merchants and the map tab's pharmacy
// stores, their lines priced from the stored menu and their counted stock taken in the caller's transaction.
import type { Transaction } from 'firebase-admin/firestore';
import type { LineRequest, PricedLine, Seller, SellerRef } from './merchants.sellers.types';

export { MERCHANT_ITEMS, MERCHANTS } from './merchants.collections';
export type { LineRequest, PricedLine, Seller, SellerKind, SellerRef } from './merchants.sellers.types';

const impl = () => (require('./merchants.sellers') as typeof import('./merchants.sellers')).sellersImpl;

export function merchantsCatalogService() {
  return (require('./merchants.catalog') as typeof import('./merchants.catalog')).merchantsService();
}

export const sellers: {
  /** Undefined when there is no such seller or it is not ACTIVE (hidden/archived). */
  get(ref: SellerRef, tx?: Transaction): Promise<Seller | undefined>;
  /** The caller's role in the seller's partner (OWNER | STAFF), undefined otherwise (partnerRoleOf from the partners face). */
  staffRole(ref: SellerRef, userId: string, tx?: Transaction): Promise<'OWNER' | 'STAFF' | undefined>;
  /**
   * Prices lines from the stored menu (never from the client). Errors: 409 ITEM_UNAVAILABLE {itemKey}, 409 OUT_OF_STOCK
   * {itemKey, available}, 400 with a field path (lines.N.options…) for an unknown item, option outside its group, too
   * few/many choices, a required group missing, quantity outside 1..99; 404 for a ref of no kind or a malformed id. It
   * does not check the seller: `get` says whether it is accepting.
   */
  quote(ref: SellerRef, lines: LineRequest[]): Promise<PricedLine[]>;
  /**
   * In the caller's transaction: reads and checks every line (call before the caller's writes), returns the priced
   * lines and `take()`, the write that decrements counted stock. Same errors. Lines of one item are summed for the
   * stock check.
   */
  txTake(tx: Transaction, ref: SellerRef, lines: LineRequest[]): Promise<{ lines: PricedLine[]; take(): void }>;
  /** In the caller's transaction: reads then returns the write that puts counted stock back (a cancelled or rejected order). */
  txGiveBack(tx: Transaction, ref: SellerRef, lines: Array<{ itemKey: string; quantity: number }>): Promise<() => void>;
} = {
  get: (ref, tx) => impl().get(ref, tx),
  staffRole: (ref, userId, tx) => impl().staffRole(ref, userId, tx),
  quote: (ref, lines) => impl().quote(ref, lines),
  txTake: (tx, ref, lines) => impl().txTake(tx, ref, lines),
  txGiveBack: (tx, ref, lines) => impl().txGiveBack(tx, ref, lines),
};
