import type { DeliveryStatus } from './delivery.machine';
import type { HandoverCodeState, HandoverProof } from './delivery.ports';

export { DELIVERIES } from './delivery.collections';

// What a parcel is: its points and contacts, its price, its payment, its hand-over codes and proofs, its timeline.

export const PARCEL_SIZES = ['SMALL', 'MEDIUM', 'LARGE'] as const;
export type ParcelSize = (typeof PARCEL_SIZES)[number];

/** What fits each size (documented to senders; drivers refuse a parcel over its size at pickup by not proving it). */
export const PARCEL_SIZE_LIMITS: Readonly<Record<ParcelSize, { maxWeightKg: number; maxDimensionsCm: readonly [number, number, number]; examples: string }>> = {
  SMALL: { maxWeightKg: 5, maxDimensionsCm: [30, 30, 30], examples: 'documents, a phone, a lunch box' },
  MEDIUM: { maxWeightKg: 15, maxDimensionsCm: [50, 40, 40], examples: 'a shoe box, a small appliance, groceries' },
  LARGE: { maxWeightKg: 30, maxDimensionsCm: [70, 50, 50], examples: 'a suitcase-sized box, a rice sack' },
};

export const DELIVERY_PAYMENT_METHODS = ['CASH', 'WALLET'] as const;
export type DeliveryPaymentMethod = (typeof DELIVERY_PAYMENT_METHODS)[number];

export interface DeliveryPoint {
  lat: number;
  lng: number;
  address: string;
}

export interface DeliveryContact {
  name: string;
  /** E.164. */
  phone: string;
}

/** What a driver shows the sender about themselves once assigned. */
export interface DriverCard {
  name: string;
  phone: string | null;
  vehicle: { type: string; plate: string } | null;
}

export interface DeliveryRecord {
  id: string;
  senderId: string;
  driverId: string | null;
  status: DeliveryStatus;
  pickup: DeliveryPoint & { contact: DeliveryContact };
  dropoff: DeliveryPoint & { contact: DeliveryContact };
  parcel: { size: ParcelSize; description: string };
  note: string | null;
  /** Road distance the fee was priced on. */
  distanceM: number;
  /** The delivery fee the sender pays (VND). */
  feeVnd: number;
  /** Cash the driver collects from the recipient for the sender (0: none). */
  codVnd: number;
  payment: {
    method: DeliveryPaymentMethod;
    /** WALLET: the hold of the fee (captured on delivery, released when called off). */
    holdPaymentId: string | null;
    /** The payment that recorded the fee (the captured hold, or the CASH record). */
    feePaymentId: string | null;
    /** The payment of a cancellation fee, when one was charged. */
    cancelFeePaymentId: string | null;
  };
  /** When the cash collected on delivery was credited to the sender and owed by the driver (ledger), else null. */
  codSettledAt: number | null;
  /** The hand-over codes: the sender reads both (and passes the drop-off code on to the recipient); never the driver. */
  codes: { pickup: HandoverCodeState; dropoff: HandoverCodeState };
  pickupProof: HandoverProof | null;
  deliveryProof: HandoverProof | null;
  driver: DriverCard | null;
  cancelledBy: 'SENDER' | 'ADMIN' | null;
  cancelReason: string | null;
  cancellationFeeVnd: number;
  /** The sender's rating of the driver (never shown to the driver). */
  rating: { stars: number; comment: string | null; at: number } | null;
  /** No driver by then: NO_DRIVER (a new window when a driver leaves it). */
  assignBy: number;
  /** The assigned driver not picked it up by then: released (optional: parcels placed before the pickup window). */
  pickupBy?: number | null;
  /** Drivers who gave it up or were released from it (the latest 20): never offered it again. */
  formerDriverIds?: string[];
  /** Times a driver left it (the phase of its no-driver timer's task). */
  releases?: number;
  /** The next search for a driver while CREATED (a task at that time), else null. */
  nextDispatchAt: number | null;
  dispatchAttempts: number;
  createdAt: number;
  assignedAt: number | null;
  pickedUpAt: number | null;
  deliveredAt: number | null;
  endedAt: number | null;
  updatedAt: number;
}

/** A quote's terms, signed into its id: the server's price for these points, this size and this cash on delivery. */
export interface QuoteTerms {
  senderId: string;
  pickup: DeliveryPoint;
  dropoff: DeliveryPoint;
  size: ParcelSize;
  codVnd: number;
  distanceM: number;
  feeVnd: number;
  expiresAt: number;
}
