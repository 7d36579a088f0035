import type { Transaction } from 'firebase-admin/firestore';
import { ConflictError, ForbiddenError, NotFoundError } from '../../platform/core/errors/app-error';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { vnd } from '../../platform/kits/money/money';
import { recordNote } from '../../platform/kits/state-machine/state-machine';
import { countStaffMoney, ledger, mapFunds, STAFF_LABEL, SYSTEM_ACCOUNTS, systemAccount, userAccount } from '../wallet';
import { type PaymentsContext } from './payments.context';
import { paymentView, staffRefundView, type PaymentRecord, type RefundEntry, type StaffRefundCause, type StaffRefundRecord } from './payments.model';
import { paymentsRepo, staffRefundsRepo } from './payments.repo';

// Refunds: the payer's, staff's (four eyes past the thresholds: a request a second administrator decides) and the
// selling module's; the gateway's side of each (requested, retried, reversed to the wallet when finally refused).

/** Who refunds: the payer, staff (the admin route, payments.manage) or the selling module (`system`). */

/** Refunds the gateway finally refused, put in the payer's wallet instead (four-eyes over a threshold). */
export function createReversals({ deps, now }: PaymentsContext) {
  /** The refund to reverse: only one the gateway finally refused (FAILED). */
  function failedRefund(p: PaymentRecord, refundId: string): RefundEntry {
    const entry = p.refunds.find((r) => r.id === refundId);
    if (!entry) throw new NotFoundError('No such refund');
    if (entry.gateway.state !== 'FAILED')
      throw new ConflictError(`The refund is ${entry.gateway.state}: only a FAILED one is reversed`).withCode('STAFF_REFUND_REVERSAL');
    return entry;
  }

  /** The refused refund's money, held at the gateway's clearing account, goes to the payer's wallet (one balanced leg). */
  async function postReversal(tx: Transaction, p: PaymentRecord, entry: RefundEntry, adminId: string, at: number, afterReads?: () => void) {
    await ledger.post(
      tx,
      [
        {
          kind: 'REFUND',
          debit: systemAccount(SYSTEM_ACCOUNTS.clearing(p.provider!)),
          credit: userAccount('WALLET', p.payerId),
          amount: vnd(entry.amount),
          memo: `refund reversed to the wallet: ${entry.reason}`,
        },
      ],
      { operationId: `${p.id}-reverse-${entry.id}`, by: STAFF_LABEL, now: at, paymentId: p.id, ref: p.ref },
    );
    afterReads?.();
    const reversed: RefundEntry = { ...entry, gateway: { state: 'REVERSED', reference: entry.gateway.reference } };
    const next: PaymentRecord = { ...p, refunds: p.refunds.map((r) => (r.id === entry.id ? reversed : r)), updatedAt: at };
    paymentsRepo.save(tx, next);
    recordNote(tx, paymentsRepo.ref(p.id), { action: 'reverseRefund', status: p.status, by: adminId, at, reason: entry.id });
    return { payment: next, entry: reversed };
  }

  /**
   * A payments.manage administrator puts a refund the gateway finally refused (FAILED) in the payer's wallet instead:
   * the payer is no longer out of the money. The four-eyes rules of staff refunds apply (a PENDING request of kind
   * REVERSAL that a second administrator approves); once per refund.
   */
  async function reverseFailedRefund(adminId: string, paymentId: string, refundId: string) {
    const at = now();
    const requestId = `V${refundId.slice(1)}`;
    const done = await mapFunds(() =>
      inTransaction(async (tx): Promise<{ payment: PaymentRecord; request?: StaffRefundRecord }> => {
        const p = await paymentsRepo.get(paymentId, tx);
        if (!p) throw new NotFoundError('No such payment');
        if (p.payerId === adminId || p.payeeId === adminId)
          throw new ForbiddenError('Staff do not refund a payment they paid or received; another administrator does').withCode('PAYMENT_SELF_REFUND');
        const asked = await staffRefundsRepo.get(requestId, tx);
        if (asked) return { payment: p, request: asked };
        const entry = failedRefund(p, refundId);
        const staffMoney = await countStaffMoney(tx, { adminId, userId: p.payerId, amount: entry.amount, threshold: deps.staffApprovalVnd, at });
        const causes: StaffRefundCause[] = entry.amount > deps.staffApprovalVnd ? ['AMOUNT'] : staffMoney.needsApproval ? ['DAILY_TOTAL'] : [];
        if (causes.length > 0) {
          const request: StaffRefundRecord = {
            id: requestId,
            kind: 'REVERSAL',
            refundId,
            paymentId,
            payerId: p.payerId,
            payeeId: p.payeeId,
            requested: entry.amount,
            amount: entry.amount,
            reason: entry.reason,
            causes,
            status: 'PENDING',
            requestedBy: adminId,
            decidedBy: null,
            decidedAt: null,
            decisionReason: null,
            createdAt: at,
            updatedAt: at,
          };
          staffRefundsRepo.create(tx, request);
          return { payment: p, request };
        }
        return postReversal(tx, p, entry, adminId, at, staffMoney.count);
      }),
    );
    return { ...paymentView(done.payment, 'staff'), refundRequest: done.request ? staffRefundView(done.request) : null };
  }

  return { failedRefund, postReversal, reverseFailedRefund };
}
