import { createHash } from 'node:crypto';
import { paymentIdFor } from '../../../src/modules/payments/payments.service';

// Payment ids are stored and sent to the gateways as order references: the stable-id kit must give the ids the
// hand-written formula gave (hex, letters and digits only).
describe('payment ids', () => {
  const formerly = (scope: string, caller: string, key: string) =>
    `P${createHash('sha256').update(`${scope}\u0000${caller}\u0000${key}`).digest('hex').slice(0, 24)}`;

  it('are the ids the former formula gave, for charges, top-ups and refunds', () => {
    for (const [scope, caller, key] of [
      ['payments.topup', 'u1', 'k-1'],
      ['payments.charge:RIDE', 'rider', 'ride_42'],
      ['payments.refund.keyless', 'P00ff', 'staff'],
    ]) {
      expect(paymentIdFor(scope, caller, key)).toBe(formerly(scope, caller, key));
    }
  });

  it('are letters and digits only, and differ by caller', () => {
    expect(paymentIdFor('payments.topup', 'u1', 'k')).toMatch(/^P[0-9a-f]{24}$/);
    expect(paymentIdFor('payments.topup', 'u1', 'k')).not.toBe(paymentIdFor('payments.topup', 'u2', 'k'));
  });
});
