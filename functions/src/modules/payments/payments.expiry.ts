import { NotFoundError } from '../../platform/core/errors/app-error';
import type { PaymentsContext } from './payments.context';
import { PAYMENT_DEADLINE, type PaymentRecord } from './payments.model';
import { paymentsRepo } from './payments.repo';

// The expiry of PENDING gateway payments (PAYMENT_DEADLINE): by the `paymentExpiry` task, or lazily by the next read,
// so a late or lost task leaves nothing open.

export function createExpiry({ now, move }: PaymentsContext) {
  /** Expires the payment; undefined when it was paid, cancelled or removed meanwhile (the move is tolerant). */
  async function expire(id: string): Promise<PaymentRecord | undefined> {
    try {
      const result = await move(id, 'expire', { by: 'system:expiry', roles: ['system'] }, (p) => ({ ...p, failureReason: 'Not paid in time' }), {
        tolerant: 'refused',
      });
      return result.changed ? result.after : undefined;
    } catch (err) {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    }
  }

  /** Lazily expires an overdue PENDING payment (its timer may be late or lost); returns the current record. */
  async function current(id: string): Promise<PaymentRecord | undefined> {
    const found = await paymentsRepo.get(id);
    if (!found || !PAYMENT_DEADLINE.isDue(found, now())) return found;
    return (await expire(id)) ?? (await paymentsRepo.get(id));
  }

  return { expire, current };
}
