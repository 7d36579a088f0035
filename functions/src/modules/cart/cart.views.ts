import { iso } from '../../platform/kits/time/time';
import type { CartRecord, Pricing } from './cart.model';
import type { Assessment, LinePrice, Problem } from './cart.pricing';
import type { Seller, SellerRef } from './cart.ports';

// What the API answers: the consumer's choices beside what the store says about them now.

export const problemView = (p: Problem) => ({ code: p.code, message: p.message, lineId: p.lineId, details: p.details ?? null });

export const lineView = ({ line, priced, problem }: LinePrice) => ({
  id: line.id,
  itemKey: line.itemKey,
  quantity: line.quantity,
  options: line.options,
  note: line.note,
  addedAt: iso(line.addedAt),
  priced: priced
    ? {
        name: priced.name,
        unitPriceVnd: priced.unitPriceVnd,
        lineTotalVnd: priced.lineTotalVnd,
        options: priced.options,
        requiresPrescription: priced.requiresPrescription,
      }
    : null,
  problem: problem ? problemView(problem) : null,
});

export const sellerView = (ref: SellerRef, seller: Seller | undefined) => ({
  kind: ref.kind,
  id: ref.id,
  name: seller?.name ?? null,
  accepting: seller?.accepting ?? false,
  openNow: seller?.openNow ?? false,
  minOrderVnd: seller?.minOrderVnd ?? null,
});

export function cartView(cart: CartRecord, seller: Seller | undefined, lines: LinePrice[], problems: Problem[]) {
  return {
    id: cart.id,
    seller: sellerView(cart.seller, seller),
    lines: lines.map(lineView),
    itemCount: cart.lines.reduce((n, l) => n + l.quantity, 0),
    itemsVnd: lines.reduce((sum, l) => sum + (l.priced?.lineTotalVnd ?? 0), 0),
    problems: problems.map(problemView),
    revision: cart.revision,
    createdAt: iso(cart.createdAt),
    updatedAt: iso(cart.updatedAt),
  };
}
export type CartView = ReturnType<typeof cartView>;

export function quoteView(
  a: Assessment,
  pricing: Pricing,
  voucher: { code: string; promotionId: string; title: string; discountVnd: number } | null,
  extra: Problem[],
) {
  const problems = [...a.problems, ...extra];
  return {
    seller: sellerView(a.seller.ref, a.seller),
    lines: a.lines.map(lineView),
    distanceM: a.distanceM,
    pricing: { ...pricing, deliveryFeeVnd: a.dropoff ? pricing.deliveryFeeVnd : null },
    voucher,
    problems: problems.map(problemView),
    canCheckout: problems.length === 0 && a.dropoff !== null,
  };
}
