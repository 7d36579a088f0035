import { AppError, ConflictError } from '../../platform/core/errors/app-error';
import type { PaymentView } from '../payments';
import type { Reservation } from '../promotions';
import type { Pricing } from './cart.model';
import type { GatewayProvider, OrderDraft, PricedLine, SellerRef } from './cart.ports';
import type { AddressInput, Assessment } from './cart.pricing';

// What both ways of checking out share (cart.checkout: the steps with their check; cart.checkout.once: one transaction).

export type PaymentChoice = { method: 'CASH' } | { method: 'WALLET' } | { method: 'GATEWAY'; provider: GatewayProvider };
export interface CheckoutInput {
  seller: SellerRef;
  address: AddressInput;
  payment: PaymentChoice;
  voucherCode?: string;
  prescriptionMediaId?: string;
  note?: string;
}

export const changed = () => new ConflictError('Your cart or its prices changed while checking out: look at it again').withCode('CART_CHANGED');

export function draftOf(
  orderId: string,
  userId: string,
  input: CheckoutInput,
  a: Assessment,
  parts: { lines: PricedLine[]; pricing: Pricing; voucher: Reservation | null; payment: PaymentView | null; at: number },
): OrderDraft {
  const { seller } = a;
  return {
    id: orderId,
    consumerId: userId,
    seller: seller.ref,
    partnerId: seller.partnerId,
    sellerName: seller.name,
    pickup: { lat: seller.lat, lng: seller.lng, address: seller.address },
    dropoff: a.dropoff!,
    distanceM: a.distanceM!,
    lines: parts.lines,
    pricing: parts.pricing,
    voucher: parts.voucher ? { code: parts.voucher.code, redemptionId: parts.voucher.redemptionId, promotionId: parts.voucher.promotionId } : null,
    payment: {
      method: input.payment.method,
      provider: input.payment.method === 'GATEWAY' ? input.payment.provider : null,
      paymentId: parts.payment?.id ?? null,
      status: parts.payment?.status ?? null,
    },
    prescriptionMediaId: a.prescriptionMediaId,
    note: input.note ?? null,
    prepTimeMin: seller.prepTimeMin,
    at: parts.at,
  };
}

/** The payment as checkout answers it. */
export const paymentAnswer = (p: PaymentView | null) =>
  p ? { id: p.id, method: p.method, provider: p.provider, status: p.status, amount: p.amount, paymentUrl: p.paymentUrl } : null;

/** The orders module's store-closed refusal, answered as the cart's quote answers it (409 CART_SELLER_CLOSED, same details). */
export function asCartRefusal(err: unknown): unknown {
  if (!(err instanceof AppError) || err.code !== 'ORDER_SELLER_CLOSED') return err;
  return new ConflictError(err.message, err.details).withCode('CART_SELLER_CLOSED');
}
