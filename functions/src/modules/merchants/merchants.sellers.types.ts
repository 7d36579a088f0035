// The sellers face's types (index.ts re-exports them): what checkout and orders know of a store and its lines.

/** MERCHANT: a store of this module; PHARMACY: a pharmacy store of the map tab, its products by sku. */
export type SellerKind = 'MERCHANT' | 'PHARMACY';
export interface SellerRef {
  kind: SellerKind;
  id: string;
}

export interface Seller {
  ref: SellerRef;
  partnerId: string;
  name: string;
  /** A merchant's category; PHARMACY for a pharmacy store. */
  category: string;
  lat: number;
  lng: number;
  /** '' when the store gave none. */
  address: string;
  deliveryRadiusM: number;
  prepTimeMin: number;
  minOrderVnd: number;
  /** Of its opening hours (Asia/Ho_Chi_Minh unless they say otherwise). */
  timeZone: string;
  /** Open now by its hours; false when it declared none. */
  openNow: boolean;
  paused: boolean;
  /** ACTIVE, not paused, open now */
  accepting: boolean;
}

export interface LineRequest {
  itemKey: string;
  quantity: number;
  options?: Array<{ group: string; choices: string[] }>;
  note?: string;
}

export interface PricedLine {
  itemKey: string;
  name: string;
  quantity: number;
  /** The item's price plus the deltas of the choices made. */
  unitPriceVnd: number;
  lineTotalVnd: number;
  /** The groups chosen from, in the item's order, each with its choices in the group's order. */
  options: Array<{ group: string; groupName: string; choices: Array<{ key: string; name: string; priceDeltaVnd: number }> }>;
  requiresPrescription: boolean;
  note?: string;
}
