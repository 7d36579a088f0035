import type { Transaction } from 'firebase-admin/firestore';
import { ConflictError, ForbiddenError, NotFoundError } from '../../platform/core/errors/app-error';
import { inTransaction } from '../../platform/core/firebase/firebase';
import type { PageRequest } from '../../platform/kits/firestore/paginate';
import { logger } from '../../platform/core/logging/logger';
import { vnd, type Vnd } from '../../platform/kits/money/money';
import { transition } from '../../platform/kits/state-machine/state-machine';
import { accounts } from '../users';
import { activeMoneyStaff, countStaffMoney, ledger, mapFunds, STAFF_LABEL, userAccount } from '../wallet';
import { GatewayError, gatewayText } from './gateways/gateway';
import { paymentIdFor, type PaymentsContext } from './payments.context';
import { fromEarnings, refundLegs } from './payments.legs';
import { createReversals } from './payments.reversals';
import {
  MAX_REFUNDS,
  paymentMachine,
  paymentView,
  refundableAmount,
  refundInFlight,
  staffRefundMachine,
  staffRefundView,
  type PaymentAction,
  type PaymentActor,
  type PaymentAudience,
  type PaymentRecord,
  type RefundEntry,
  type StaffRefundCause,
  type StaffRefundRecord,
  type StaffRefundStatus,
} from './payments.model';
import { paymentsRepo, staffRefundsRepo } from './payments.repo';

// Refunds: the payer's, staff's (four eyes past the thresholds: a request a second administrator decides) and the
// selling module's; the gateway's side of each (requested, retried, reversed to the wallet when finally refused).

/** Who refunds: the payer, staff (the admin route, payments.manage) or the selling module (`system`). */
export interface RefundActor {
  userId: string;
  staff: boolean;
  system?: boolean;
}

export function createRefunds(ctx: PaymentsContext) {
  const { deps, now, gatewayOf } = ctx;
  const { failedRefund, postReversal, reverseFailedRefund } = createReversals(ctx);
  /** A keyless repeat answers only the same ask (amount and reason); another one needs its own key (409). */
  function assertSameAsk(
    r: { id: string; reason: string; amount: number; requested?: number | null },
    input: { amount?: Vnd; reason: string },
    idempotencyKey: string | undefined,
  ): void {
    if (idempotencyKey) return;
    const sameAmount = r.requested !== undefined ? r.requested === (input.amount ?? null) : input.amount === undefined || input.amount === r.amount;
    if (!sameAmount || r.reason !== input.reason) {
      throw new ConflictError('This payment already has a keyless refund with another amount or reason: send an Idempotency-Key for another refund', {
        refundId: r.id,
      }).withCode('PAYMENT_REFUND_KEY_REQUIRED');
    }
  }

  /** What a refund asking for `asked` (absent: all that is left) comes to now; refuses what cannot be refunded. */
  function refundAmount(p: PaymentRecord, asked: number | undefined, role: PaymentActor, at: number): number {
    const pending = p.refunds.find((r) => refundInFlight(r, at));
    if (pending)
      throw new ConflictError('A refund of this payment is still with the gateway; try again once it settles', { refundId: pending.id }).withCode(
        'PAYMENT_REFUND_IN_FLIGHT',
      );
    const remaining = refundableAmount(p);
    const amount = asked ?? remaining;
    paymentMachine.check(amount >= remaining ? 'refund' : 'refundPart', p.status, [role]);
    if (p.refunds.length >= MAX_REFUNDS) throw new ConflictError(`A payment takes at most ${MAX_REFUNDS} refunds`).withCode('PAYMENT_REFUND_EXCEEDS');
    if (amount <= 0 || amount > remaining)
      throw new ConflictError(`At most ${remaining} VND of this payment can be refunded`, { refundable: remaining }).withCode('PAYMENT_REFUND_EXCEEDS');
    return amount;
  }

  /**
   * Posts a refund in the caller's transaction (after its own reads): the ledger legs, the payment's new refund and
   * its event. `afterReads` runs once the ledger has read (the caller's counters write then).
   */
  async function postRefund(
    tx: Transaction,
    p: PaymentRecord,
    r: { refundId: string; amount: number; requested: number | null; reason: string; label: string; by: string; role: PaymentActor; at: number },
    afterReads?: () => void,
  ) {
    const remaining = refundableAmount(p);
    const action: PaymentAction = r.amount >= remaining ? 'refund' : 'refundPart';
    const state = p.method !== 'GATEWAY' ? 'NOT_NEEDED' : p.provider === 'MOCK' ? 'SETTLED' : 'REQUESTED';
    const entry: RefundEntry = {
      id: r.refundId,
      amount: r.amount,
      reason: r.reason,
      by: r.label,
      at: r.at,
      gateway: { state, reference: state === 'SETTLED' ? `mock-refund-${r.refundId}` : null },
      requestedAt: state === 'REQUESTED' ? r.at : null,
      requested: r.requested,
    };
    // The payment was read in the caller's transaction: the move starts from it.
    const { after } = await transition(
      paymentMachine,
      {
        load: async () => p,
        ref: () => paymentsRepo.ref(p.id),
        alongside: async (t) => {
          await ledger.post(t, refundLegs(p, vnd(r.amount), remaining, r.reason), {
            operationId: `${p.id}-refund-${p.refunds.length}`,
            by: r.label,
            now: r.at,
            paymentId: p.id,
            ref: p.ref,
          });
          afterReads?.();
        },
        save: (t, next) => paymentsRepo.save(t, next),
      },
      {
        action,
        by: r.by,
        now: r.at,
        reason: r.reason,
        rolesOf: () => [r.role],
        apply: (current, to) => ({
          ...current,
          status: to,
          refundedAmount: current.refundedAmount + r.amount,
          refunds: [...current.refunds, entry],
          updatedAt: r.at,
        }),
        missing: () => new NotFoundError('No such payment'),
      },
      tx,
    );
    return { payment: after, entry };
  }

  /**
   * Refunds all or part of a payment. Wallet money goes back to the wallet; gateway money goes back through the
   * gateway (its clearing account), and a top-up's refund first takes the money out of the wallet (409 when the
   * wallet no longer holds it). Cash is refunded in person, not here. Idempotent per refund id: with a key, one
   * refund per key; without one, one keyless refund per payment and side (payer, staff): a repeat with the same
   * amount and reason answers the payment as it is, another one is 409 PAYMENT_REFUND_KEY_REQUIRED.
   *
   * Payers refund their own top-ups within the window. Staff (payments.manage, the admin route) refund any payment
   * without the top-ups-only rule or the payer's window (support cases and disputes arrive later and concern
   * purchases); what protects the payee stays: never a payment the staff member paid or was paid by, a written
   * reason on the payee's ledger entry, at most what is left, and never beside a gateway refund still in flight.
   * Four eyes: a staff refund above WALLET_ADJUSTMENT_APPROVAL_VND (alone or with the day's staff money of the
   * administrator or to the payer), or one taking the payee's earnings below zero, waits PENDING (`refundRequest`)
   * for a second administrator.
   */
  async function refund(actor: RefundActor, input: { paymentId: string; amount?: Vnd; reason: string }, idempotencyKey?: string, clientIp = '127.0.0.1') {
    // The refund's id derives from the caller's key: the same key refunds once, even after the 24 h replay window.
    const side = actor.system ? 'system' : actor.staff ? 'staff' : 'payer';
    const refundId = (
      idempotencyKey ? paymentIdFor('payments.refund', actor.userId, idempotencyKey) : paymentIdFor('payments.refund.keyless', input.paymentId, side)
    ).replace(/^P/, 'R');
    const found = await paymentsRepo.get(input.paymentId);
    const payerPath = side === 'payer';
    if (!found || (payerPath && found.payerId !== actor.userId)) throw new NotFoundError('No such payment');
    const audience: PaymentAudience = payerPath ? 'payer' : 'staff';
    const answer = (p: PaymentRecord, request: StaffRefundRecord | null = null) => ({
      ...paymentView(p, audience),
      ...(side === 'staff' ? { refundRequest: request && staffRefundView(request) } : {}),
    });
    const replay = found.refunds.find((r) => r.id === refundId);
    if (replay) {
      assertSameAsk(replay, input, idempotencyKey);
      return answer(found);
    }
    if (actor.staff && (found.payerId === actor.userId || found.payeeId === actor.userId)) {
      throw new ForbiddenError('Staff do not refund a payment they paid or received; another administrator does').withCode('PAYMENT_SELF_REFUND');
    }
    if (payerPath) {
      // A buyer cannot take back what they paid for a ride or an order on their own: the vertical or an administrator does.
      if (found.purpose !== 'TOPUP')
        throw new ForbiddenError('Only a top-up is refunded by its payer; ask support for a purchase').withCode('PAYMENT_NOT_REFUNDABLE_BY_PAYER');
      if (found.succeededAt !== null && now() - found.succeededAt > deps.refundWindowDays * 86_400_000) {
        throw new ConflictError(`Top-ups are refunded within ${deps.refundWindowDays} days`).withCode('PAYMENT_REFUND_WINDOW');
      }
    }
    if (found.method === 'CASH') throw new ConflictError('A cash payment is refunded in person').withCode('PAYMENT_NOT_REFUNDABLE');
    const role: PaymentActor = side === 'staff' ? 'admin' : side;
    // Payers read their payment and ledger entries: they see STAFF or SERVICE, the staff id stays in the events.
    const label = actor.staff ? STAFF_LABEL : actor.system ? (actor.userId.startsWith('system:') ? actor.userId : 'SERVICE') : actor.userId;
    const at = now();
    // One transaction reads the payment, decides full or partial on what is left now, and moves the money (or, for
    // staff past the four-eyes rules, records the request a second administrator decides).
    const done = await mapFunds(() =>
      inTransaction(async (tx): Promise<{ payment: PaymentRecord; entry?: RefundEntry; request?: StaffRefundRecord }> => {
        const p = (await paymentsRepo.get(input.paymentId, tx))!;
        const again = p.refunds.find((r) => r.id === refundId);
        if (again) {
          assertSameAsk(again, input, idempotencyKey);
          return { payment: p };
        }
        if (side !== 'staff') {
          const amount = refundAmount(p, input.amount, role, at);
          return postRefund(tx, p, { refundId, amount, requested: input.amount ?? null, reason: input.reason, label, by: actor.userId, role, at });
        }
        const asked = await staffRefundsRepo.get(refundId, tx);
        if (asked) {
          assertSameAsk(asked, input, idempotencyKey);
          return { payment: p, request: asked };
        }
        const amount = refundAmount(p, input.amount, role, at);
        const staffMoney = await countStaffMoney(tx, { adminId: actor.userId, userId: p.payerId, amount, threshold: deps.staffApprovalVnd, at });
        const causes: StaffRefundCause[] = amount > deps.staffApprovalVnd ? ['AMOUNT'] : staffMoney.needsApproval ? ['DAILY_TOTAL'] : [];
        const payeeShare = fromEarnings(p, amount, input.reason);
        if (payeeShare > 0 && (await ledger.balance(tx, userAccount('EARNINGS', p.payeeId!).id)) - payeeShare < 0) causes.push('EARNINGS_BELOW_ZERO');
        if (causes.length > 0) {
          const request: StaffRefundRecord = {
            id: refundId,
            paymentId: p.id,
            payerId: p.payerId,
            payeeId: p.payeeId,
            requested: input.amount ?? null,
            amount,
            reason: input.reason,
            causes,
            status: 'PENDING',
            requestedBy: actor.userId,
            decidedBy: null,
            decidedAt: null,
            decisionReason: null,
            createdAt: at,
            updatedAt: at,
          };
          staffRefundsRepo.create(tx, request);
          return { payment: p, request };
        }
        return postRefund(
          tx,
          p,
          { refundId, amount, requested: input.amount ?? null, reason: input.reason, label, by: actor.userId, role, at },
          staffMoney.count,
        );
      }),
    );
    if (done.entry?.gateway.state === 'REQUESTED') return answer(await requestGatewayRefund(done.payment, done.entry, clientIp));
    return answer(done.payment, done.request ?? null);
  }

  /**
   * A second administrator approves a PENDING staff refund (the money moves in the same transaction) or someone
   * rejects it. Not the requester (403 STAFF_REFUND_SELF_APPROVAL), nor the payer or payee (403 PAYMENT_SELF_REFUND);
   * a requester who is no longer an active ADMIN with payments.manage no longer vouches (409 STAFF_REFUND_REQUESTER_REVOKED).
   */
  async function decideStaffRefund(action: 'approve' | 'reject', id: string, adminId: string, reason: string | null, clientIp = '127.0.0.1') {
    const at = now();
    let requesterActive = false;
    let payment: PaymentRecord | undefined;
    let posted: { payment: PaymentRecord; entry: RefundEntry } | undefined;
    const { after } = await mapFunds(() =>
      transition(
        staffRefundMachine,
        {
          load: async (tx) => {
            const found = await staffRefundsRepo.get(id, tx);
            if (found && action === 'approve') {
              requesterActive = activeMoneyStaff(await accounts.get(found.requestedBy, tx));
              payment = await paymentsRepo.get(found.paymentId, tx);
            }
            return found;
          },
          ref: () => staffRefundsRepo.ref(id),
          alongside: async (tx, next) => {
            if (action !== 'approve' || !payment) return;
            if (next.kind === 'REVERSAL') {
              posted = await postReversal(tx, payment, failedRefund(payment, next.refundId!), adminId, at);
              return;
            }
            const amount = refundAmount(payment, next.requested ?? undefined, 'admin', at);
            posted = await postRefund(tx, payment, {
              refundId: id,
              amount,
              requested: next.requested,
              reason: next.reason,
              label: STAFF_LABEL,
              by: adminId,
              role: 'admin',
              at,
            });
          },
          save: (tx, next) => staffRefundsRepo.save(tx, next),
        },
        {
          action,
          by: adminId,
          now: at,
          reason,
          rolesOf: () => ['admin'],
          apply: (r, to) => {
            if (action === 'approve') {
              if (r.requestedBy === adminId)
                throw new ForbiddenError('The administrator who asked for a staff refund does not approve it').withCode('STAFF_REFUND_SELF_APPROVAL');
              if (r.payerId === adminId || r.payeeId === adminId)
                throw new ForbiddenError('Staff do not refund a payment they paid or received; another administrator does').withCode('PAYMENT_SELF_REFUND');
              if (!requesterActive)
                throw new ConflictError(
                  'The administrator who asked for this refund no longer may (not an active ADMIN with payments.manage): reject it',
                ).withCode('STAFF_REFUND_REQUESTER_REVOKED');
            }
            return { ...r, status: to, decidedBy: adminId, decidedAt: at, decisionReason: reason, updatedAt: at };
          },
          missing: () => new NotFoundError('No such staff refund'),
        },
      ),
    );
    let moved = posted?.payment;
    if (posted?.entry.gateway.state === 'REQUESTED') moved = await requestGatewayRefund(posted.payment, posted.entry, clientIp);
    return { ...staffRefundView(after), payment: moved ? paymentView(moved, 'staff') : null };
  }

  async function staffRefunds(filter: { status?: StaffRefundStatus }, page: Pick<PageRequest, 'limit' | 'cursor'>, adminId: string) {
    const result = await staffRefundsRepo.list(filter, { ...page, query: `payments:staff-refunds:${filter.status ?? ''}`, caller: adminId });
    return { items: result.items.map(staffRefundView), nextCursor: result.nextCursor };
  }

  /** Sends a refund to the real gateway; the outcome is stored on the refund (FAILED ones are retried by an admin). */
  async function requestGatewayRefund(payment: PaymentRecord, entry: RefundEntry, clientIp: string): Promise<PaymentRecord> {
    let state: 'SETTLED' | 'FAILED' = 'SETTLED';
    let reference: string | null = null;
    try {
      reference = (
        await gatewayOf(payment.provider!).refund({
          paymentId: payment.id,
          refundId: entry.id,
          amount: entry.amount,
          paymentAmount: payment.amount,
          transactionNo: payment.gateway?.transactionNo ?? null,
          paidAt: payment.gateway?.paidAt ?? null,
          createdAt: entry.at,
          by: entry.by,
          clientIp,
          reason: gatewayText(entry.reason),
        })
      ).reference;
    } catch (err) {
      state = 'FAILED';
      logger.error('gateway refund failed', { paymentId: payment.id, refundId: entry.id, error: err instanceof GatewayError ? err.message : String(err) });
    }
    return inTransaction(async (tx) => {
      const fresh = (await paymentsRepo.get(payment.id, tx))!;
      const refunds = fresh.refunds.map((r) => (r.id === entry.id ? { ...r, gateway: { state, reference } } : r));
      const next = { ...fresh, refunds, updatedAt: now() };
      paymentsRepo.save(tx, next);
      return next;
    });
  }

  /**
   * An administrator sends a refund the gateway refused (FAILED) or never answered (REQUESTED past the in-flight
   * time) again. The claim is one transaction: a second retry while the first is with the gateway is 409.
   */
  async function retryGatewayRefund(paymentId: string, refundId: string, clientIp: string) {
    const at = now();
    const claimed = await inTransaction(async (tx) => {
      const found = await paymentsRepo.get(paymentId, tx);
      const entry = found?.refunds.find((r) => r.id === refundId);
      if (!found || !entry) throw new NotFoundError('No such refund');
      if (refundInFlight(entry, at))
        throw new ConflictError('This refund is still with the gateway; try again once it settles', { refundId }).withCode('PAYMENT_REFUND_IN_FLIGHT');
      if (entry.gateway.state !== 'FAILED' && entry.gateway.state !== 'REQUESTED')
        throw new ConflictError(`The refund is ${entry.gateway.state}`).withCode('PAYMENT_TRANSITION');
      const again: RefundEntry = { ...entry, gateway: { state: 'REQUESTED', reference: null }, requestedAt: at };
      const next = { ...found, refunds: found.refunds.map((r) => (r.id === refundId ? again : r)), updatedAt: at };
      paymentsRepo.save(tx, next);
      return { payment: next, entry: again };
    });
    return paymentView(await requestGatewayRefund(claimed.payment, claimed.entry, clientIp));
  }

  return { refund, decideStaffRefund, staffRefunds, reverseFailedRefund, retryGatewayRefund };
}
