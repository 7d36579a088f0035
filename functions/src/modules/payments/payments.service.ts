import type { PageRequest } from '../../platform/kits/firestore/paginate';
import { NotFoundError } from '../../platform/core/errors/app-error';
import { createCheckout } from './payments.checkout';
import { createPaymentsContext, type PaymentsServiceDeps } from './payments.context';
import { createExpiry } from './payments.expiry';
import { PAYMENT_DEADLINE, payerLabel, paymentView, type PaymentAudience, type PaymentMethod } from './payments.model';
import { createNotices } from './payments.notices';
import { createRefunds } from './payments.refunds';
import { paymentEvents, paymentsRepo, type PaymentFilter } from './payments.repo';

// The payments service, in parts along its seams: checkout (top-ups, charges, tips, holds), gateway notices, expiry,
// refunds; the reads are here. Every status move runs on platform/kits/state-machine's `transition`.

export type { ChargeInput, TipInput } from './payments.checkout';
export { paymentIdFor, type PaymentsServiceDeps } from './payments.context';
export type { NoticeOutcome } from './payments.notices';
export type { RefundActor } from './payments.refunds';

/** Who reads a payment: staff are payments.manage administrators; everyone else sees only their own. */
export interface PaymentViewer {
  userId: string;
  staff: boolean;
}

export function createPaymentsService(deps: PaymentsServiceDeps) {
  const ctx = createPaymentsContext(deps);
  const { now, move } = ctx;
  const notices = createNotices(ctx);
  const checkout = createCheckout(ctx, notices);
  const expiry = createExpiry(ctx);
  const refunds = createRefunds(ctx);
  const { current } = expiry;

  /** A payer reads their own payments; staff (payments.manage) read any, with who acted. */
  async function get(viewer: PaymentViewer, id: string) {
    const found = await current(id);
    if (!found || (!viewer.staff && found.payerId !== viewer.userId)) throw new NotFoundError('No such payment');
    return paymentView(found, viewer.staff ? 'staff' : 'payer');
  }

  async function list(filter: PaymentFilter, page: Pick<PageRequest, 'limit' | 'cursor'>, caller: string, audience: PaymentAudience) {
    const key = `payments:${filter.payerId ?? '*'}:${filter.status ?? ''}:${filter.purpose ?? ''}:${filter.method ?? ''}:${filter.provider ?? ''}`;
    const result = await paymentsRepo.list(filter, { ...page, query: key, caller });
    const at = now();
    // Overdue ones read as EXPIRED at once; their timers (or the next read) store it.
    return {
      items: result.items.map((p) => paymentView(PAYMENT_DEADLINE.isDue(p, at) ? { ...p, status: 'EXPIRED' } : p, audience)),
      nextCursor: result.nextCursor,
    };
  }

  async function cancel(payerId: string, id: string) {
    const found = await current(id);
    if (!found || found.payerId !== payerId) throw new NotFoundError('No such payment');
    return paymentView(
      (await move(id, 'cancel', { by: payerId, roles: ['payer'] }, (p) => ({ ...p, failureReason: 'Cancelled by the payer' }))).after,
      'payer',
    );
  }

  async function events(viewer: PaymentViewer, id: string) {
    const payment = await get(viewer, id);
    const items = await paymentEvents(id);
    return { items: viewer.staff ? items : items.map((e) => ({ ...e, by: payerLabel(e.by, payment.payerId) })) };
  }

  function methods() {
    return {
      currency: 'VND' as const,
      methods: ['WALLET', 'CASH', 'GATEWAY'] as PaymentMethod[],
      providers: (['VNPAY', 'MOMO', 'MOCK'] as const).map((provider) => ({ provider, available: deps.gateways[provider] !== undefined })),
      topup: { min: 10_000, max: 50_000_000 },
      refundWindowDays: deps.refundWindowDays,
      paymentExpirySec: deps.expirySec,
    };
  }

  const { topup, charge, tip, hold, txHold, txCharge, capture, release } = checkout;
  const { handleNotice, handleMockNotice } = notices;
  const { refund, decideStaffRefund, staffRefunds, reverseFailedRefund, retryGatewayRefund } = refunds;
  const { expire } = expiry;
  return {
    topup,
    events,
    handleNotice,
    handleMockNotice,
    get,
    list,
    cancel,
    charge,
    tip,
    hold,
    txHold,
    txCharge,
    capture,
    release,
    refund,
    decideStaffRefund,
    staffRefunds,
    reverseFailedRefund,
    retryGatewayRefund,
    expire,
    methods,
    current,
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
