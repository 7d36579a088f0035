import { transition } from '../../platform/kits/state-machine/state-machine';
import { ledger, mapFunds } from '../wallet';
import type { GatewayNotice } from './gateways/gateway';
import { verifyMockNotice } from './gateways/mock';
import type { PaymentsContext } from './payments.context';
import { settlementLegs } from './payments.legs';
import { paymentMachine, type PaymentRecord } from './payments.model';
import { paymentsRepo } from './payments.repo';

// Gateway notices (IPN, the mock's instant payment): the one settle path. Delivered at least once: the move is
// tolerant, so a repeated or stale notice changes nothing ('duplicate').

export type NoticeOutcome = 'settled' | 'failed' | 'pending' | 'duplicate' | 'unknown-order' | 'amount-mismatch';

/** A notice that moves nothing, and why (answered to the gateway, not an error). */
class NoticeSkipped extends Error {
  constructor(readonly outcome: NoticeOutcome) {
    super(outcome);
  }
}

export function createNotices({ deps, now }: PaymentsContext) {
  /**
   * A gateway's verified notice. Idempotent: a repeated success changes nothing ('duplicate'). The stored amount is
   * the truth: a notice for another amount moves no money.
   */
  async function handleNotice(notice: GatewayNotice): Promise<NoticeOutcome> {
    const at = now();
    const by = `system:${notice.provider}`;
    const gateway = (p: PaymentRecord) => ({
      orderRef: p.id,
      transactionNo: notice.transactionNo,
      bankCode: notice.bankCode,
      responseCode: notice.responseCode,
      paidAt: notice.paidAt,
    });
    try {
      const result = await mapFunds(() =>
        transition(
          paymentMachine,
          {
            load: (tx) => paymentsRepo.get(notice.paymentId, tx),
            ref: () => paymentsRepo.ref(notice.paymentId),
            alongside: async (tx, _next, payment) => {
              if (notice.success)
                await ledger.post(tx, settlementLegs(payment), { operationId: `${payment.id}-settle`, by, now: at, paymentId: payment.id, ref: payment.ref });
            },
            save: (tx, next) => paymentsRepo.save(tx, next),
          },
          {
            action: notice.success ? 'settle' : 'fail',
            by,
            now: at,
            reason: `${notice.provider} ${notice.responseCode}`,
            rolesOf: () => ['gateway'],
            missing: () => new NoticeSkipped('unknown-order'),
            visible: (p) => p.provider === notice.provider && p.method === 'GATEWAY',
            guard: (p) => {
              if (p.amount !== notice.amount) throw new NoticeSkipped('amount-mismatch');
              // Authorized is not paid: the money moves with the capture's notice.
              if (notice.pending) throw new NoticeSkipped('pending');
            },
            apply: (p, to) =>
              notice.success
                ? { ...p, status: to, gateway: gateway(p), succeededAt: at, updatedAt: at, failureReason: null }
                : { ...p, status: to, gateway: gateway(p), updatedAt: at, failureReason: `The gateway declined the payment (code ${notice.responseCode})` },
            tolerant: 'refused',
          },
        ),
      );
      if (!result.changed) return 'duplicate';
      return notice.success ? 'settled' : 'failed';
    } catch (err) {
      if (err instanceof NoticeSkipped) return err.outcome;
      throw err;
    }
  }

  async function handleMockNotice(notice: GatewayNotice, signature: string): Promise<NoticeOutcome | 'bad-signature'> {
    if (!verifyMockNotice(notice, signature, deps.mockKey)) return 'bad-signature';
    return handleNotice(notice);
  }

  return { handleNotice, handleMockNotice };
}
