import { allocate, percentOf, vnd, type Vnd } from '../../platform/kits/money/money';
import { SYSTEM_ACCOUNTS, systemAccount, userAccount, type Leg } from '../wallet';
import { refundableAmount, type PaymentRecord } from './payments.model';

// The ledger legs of each money move of a payment: payouts (payee's share and platform fee), a gateway settlement,
// refunds (the shares given back in the proportion they were paid). Pure: the services post them.

/** The legs that pay `amount` from `source` to the payee's earnings and platform revenue (fee first). */
export function payoutLegs(kind: Leg['kind'], source: Leg['debit'], payment: Pick<PaymentRecord, 'payeeId' | 'feeBp'>, amount: Vnd, memo: string): Leg[] {
  const revenue = systemAccount(SYSTEM_ACCOUNTS.platformRevenue);
  if (!payment.payeeId) return [{ kind, debit: source, credit: revenue, amount, memo }];
  const fee = percentOf(amount, payment.feeBp);
  const share = vnd(amount - fee);
  return [
    ...(share > 0 ? [{ kind, debit: source, credit: userAccount('EARNINGS', payment.payeeId), amount: share, memo }] : []),
    ...(fee > 0 ? [{ kind, debit: source, credit: revenue, amount: fee, memo: `${memo} (fee)` }] : []),
  ];
}

/** Where a settled gateway payment's money goes: the payer's wallet for a top-up, else the payee and platform. */
export function settlementLegs(payment: PaymentRecord): Leg[] {
  const clearing = systemAccount(SYSTEM_ACCOUNTS.clearing(payment.provider!));
  if (payment.purpose === 'TOPUP')
    return [{ kind: 'TOPUP', debit: clearing, credit: userAccount('WALLET', payment.payerId), amount: vnd(payment.amount), memo: payment.description }];
  return payoutLegs('PAYMENT', clearing, payment, vnd(payment.amount), payment.description);
}

/** The legs of a refund of `amount` out of `remaining` still refundable: back to the wallet, or to the gateway (clearing). */
export function refundLegs(p: PaymentRecord, amount: Vnd, remaining: number, reason: string): Leg[] {
  const memo = `refund: ${reason}`;
  const payer = userAccount('WALLET', p.payerId);
  const back = p.method === 'GATEWAY' ? systemAccount(SYSTEM_ACCOUNTS.clearing(p.provider!)) : payer;
  if (p.purpose === 'TOPUP') return [{ kind: 'REFUND', debit: payer, credit: back, amount, memo }];
  const revenue = systemAccount(SYSTEM_ACCOUNTS.platformRevenue);
  if (!p.payeeId) return [{ kind: 'REFUND', debit: revenue, credit: back, amount, memo }];
  // The payee gives back their share and the platform its fee, in the proportion they were paid (exact on the last refund).
  const paid = p.heldAmount > 0 ? p.capturedAmount : p.amount;
  const feeTotal = percentOf(vnd(paid), p.feeBp);
  const [fromPayee, fromPlatform] = amount === remaining ? splitRest(p, paid, feeTotal) : allocate(amount, [paid - feeTotal, feeTotal]);
  return [
    ...(fromPayee > 0
      ? [{ kind: 'REFUND' as const, debit: userAccount('EARNINGS', p.payeeId), credit: back, amount: fromPayee, memo, allowOverdraft: true }]
      : []),
    ...(fromPlatform > 0 ? [{ kind: 'REFUND' as const, debit: revenue, credit: back, amount: fromPlatform, memo }] : []),
  ];
}

/** The last refund: whatever of each share earlier partial refunds left. */
function splitRest(p: PaymentRecord, paid: number, feeTotal: number): [Vnd, Vnd] {
  let fromPayee = 0;
  let fromPlatform = 0;
  for (const r of p.refunds) {
    const [a, b] = allocate(vnd(r.amount), [paid - feeTotal, feeTotal]);
    fromPayee += a;
    fromPlatform += b;
  }
  return [vnd(paid - feeTotal - fromPayee), vnd(feeTotal - fromPlatform)];
}

/** What of a refund of `amount` the payee's earnings give back. */
export function fromEarnings(p: PaymentRecord, amount: number, reason: string): number {
  if (!p.payeeId) return 0;
  const earnings = userAccount('EARNINGS', p.payeeId).id;
  return refundLegs(p, vnd(amount), refundableAmount(p), reason)
    .filter((l) => l.debit.id === earnings)
    .reduce((sum, l) => sum + l.amount, 0);
}
