import { inTransaction } from '../../platform/core/firebase/firebase';
import { normalizeCode, type PromotionVertical } from './promotions.model';
import { checkApplies, previewUse, releaseUse, takeUse, type Purchase } from './promotions.redemption';
import { promotionsRepo } from './promotions.repo';

// What other modules do with vouchers for a purchase they are creating (an order at checkout, a booking): take one use
// before the purchase exists, under the reference it will have, and give it back when the purchase is not created or is
// called off. System authority: the calling module has checked who its caller is and priced the purchase itself.

export interface ReserveInput {
  userId: string;
  code: string;
  vertical: Extract<PromotionVertical, 'ORDER' | 'BOOKING'>;
  /** The seller's partner: a partner voucher applies only to its own sales (null: a seller of no partner). */
  partnerId: string | null;
  /** The purchase before the discount, VND, as the calling module priced it. */
  amount: number;
  /** `ORDER:<orderId>`, `BOOKING:<bookingId>`: one voucher per reference, and one use per voucher and reference. */
  reference: string;
}

export interface Reservation {
  redemptionId: string;
  promotionId: string;
  code: string;
  discount: number;
  /** The amount the use was taken for: a repeat of a reference answers the first use, whatever amount it names now. */
  amount: number;
}

const purchaseOf = (input: Pick<ReserveInput, 'vertical' | 'partnerId' | 'amount'>): Purchase => ({
  vertical: input.vertical,
  amount: input.amount,
  ...(input.partnerId ? { partnerId: input.partnerId } : {}),
});

export function createPromotionCommands(deps: { now?: () => number } = {}) {
  const now = deps.now ?? Date.now;
  return {
    /**
     * Takes one use of the code for the purchase named by `reference`, inside the voucher's limits (409
     * PROMOTION_USER_LIMIT, PROMOTION_EXHAUSTED, PROMOTION_PAYABLE_TAKEN when another voucher holds the reference; 404
     * PROMOTION_NOT_FOUND; 409/422 for dates, vertical, seller, minimum). Idempotent per reference: a repeat answers the
     * same use; a use given back is taken again (a checkout retried after a failure).
     */
    async reserve(input: ReserveInput): Promise<Reservation> {
      const purchase = purchaseOf(input);
      const first = await promotionsRepo.byCode(normalizeCode(input.code));
      checkApplies(first, purchase, now());
      const r = await takeUse({ first, userId: input.userId, purchase, reference: input.reference, retake: true, noun: 'purchase', now });
      return { redemptionId: r.id, promotionId: r.promotionId, code: r.code, discount: r.discount, amount: r.amount };
    },

    /** Gives back the use held by `reference` (none, or given back already: nothing to do). System authority, idempotent. */
    async releaseFor(reference: string, reason: string): Promise<void> {
      const at = now();
      await inTransaction(async (tx) => {
        const claim = await promotionsRepo.claimOf(reference, tx);
        if (!claim) return;
        const r = await promotionsRepo.getRedemption(claim.redemptionId, tx);
        if (!r || r.status === 'RELEASED') return;
        await releaseUse(tx, r, at, reason);
      });
    },

    /** What the code would take off the purchase now (nothing is used): the reservation's checks, as a quote shows them. */
    async preview(input: Omit<ReserveInput, 'reference'>): Promise<{ promotionId: string; code: string; title: string; discount: number }> {
      const { promotion, discount } = await previewUse(input.userId, input.code, purchaseOf(input), now());
      return { promotionId: promotion.id, code: promotion.code, title: promotion.title, discount };
    },
  };
}

export type PromotionCommands = ReturnType<typeof createPromotionCommands>;
