import {
  accountOf,
  applyLegs,
  checkBalances,
  InsufficientFundsError,
  pickShard,
  systemAccount,
  userAccount,
  vietnamDay,
  type Leg,
} from '../../../src/modules/wallet/ledger.model';
import { refundableAmount, isOverdue, paymentMachine } from '../../../src/modules/payments/payments.model';
import { vnd } from '../../../src/platform/kits/money/money';

const leg = (debit: Leg['debit'], credit: Leg['credit'], amount: number, extra: Partial<Leg> = {}): Leg => ({
  kind: 'PAYMENT',
  debit,
  credit,
  amount: vnd(amount),
  ...extra,
});

describe('ledger legs', () => {
  const wallet = userAccount('WALLET', 'u1');
  const other = userAccount('WALLET', 'u2');
  const earnings = userAccount('EARNINGS', 'd1');
  const revenue = systemAccount('platform_revenue');

  it('applies legs in order to plain accounts; sharded accounts are not tracked (blind increments)', () => {
    const { after, perLeg } = applyLegs(
      [leg(wallet, other, 30_000), leg(other, earnings, 10_000), leg(wallet, revenue, 5_000)],
      new Map([['wallet_u1', { balance: 50_000, reserved: 0 }]]),
    );
    expect(Object.fromEntries(after)).toEqual({ wallet_u1: 15_000, wallet_u2: 20_000, earnings_d1: 10_000 });
    expect(perLeg[2]).toEqual({ debit: 15_000, credit: null });
  });

  it('never takes a wallet below zero, nor earnings below their reserve unless overdraft is allowed', () => {
    expect(() => applyLegs([leg(wallet, other, 50_001)], new Map([['wallet_u1', { balance: 50_000, reserved: 0 }]]))).toThrow(InsufficientFundsError);
    expect(() => applyLegs([leg(earnings, revenue, 10_000)], new Map([['earnings_d1', { balance: 15_000, reserved: 6_000 }]]))).toThrow(
      expect.objectContaining({ available: 9_000, needed: 10_000 }),
    );
    expect(
      applyLegs([leg(earnings, revenue, 20_000, { allowOverdraft: true })], new Map([['earnings_d1', { balance: 15_000, reserved: 0 }]])).after.get(
        'earnings_d1',
      ),
    ).toBe(-5_000);
    expect(() => applyLegs([leg(userAccount('HELD', 'u1'), wallet, 1, { allowOverdraft: true })], new Map())).toThrow(InsufficientFundsError);
    expect(() => applyLegs([leg(wallet, wallet, 1)], new Map())).toThrow(/cannot debit and credit/);
  });

  it('account ids describe themselves; shards are picked in range', () => {
    expect(accountOf('earnings_abc')).toEqual({ id: 'earnings_abc', type: 'EARNINGS', ownerId: 'abc', shards: 1 });
    expect(accountOf('clearing_VNPAY')).toEqual({ id: 'clearing_VNPAY', type: 'SYSTEM', ownerId: null, shards: 16 });
    expect(() => accountOf('nonsense')).toThrow(/unknown system account/);
    expect(pickShard(1)).toBeNull();
    expect(pickShard(16, () => 0.999999)).toBe(15);
  });

  it('checks stored balances against the transfers, and the ledger total against zero', () => {
    const transfers = [
      { debit: 'clearing_MOCK', credit: 'wallet_u1', amount: 100 },
      { debit: 'wallet_u1', credit: 'platform_revenue', amount: 40 },
    ];
    expect(
      checkBalances(
        transfers,
        new Map([
          ['clearing_MOCK', -100],
          ['wallet_u1', 60],
          ['platform_revenue', 40],
        ]),
      ).ok,
    ).toBe(true);
    const drifted = checkBalances(
      transfers,
      new Map([
        ['clearing_MOCK', -100],
        ['wallet_u1', 61],
        ['platform_revenue', 40],
      ]),
    );
    expect(drifted.ok).toBe(false);
    expect(drifted.total).toBe(1);
    expect(drifted.accounts.find((a) => a.accountId === 'wallet_u1')).toEqual({ accountId: 'wallet_u1', stored: 61, fromTransfers: 60, ok: false });
  });

  it('daily limits reset at midnight in Vietnam', () => {
    expect(vietnamDay(Date.UTC(2026, 10, 23, 16, 59))).toBe('20261123');
    expect(vietnamDay(Date.UTC(2026, 10, 23, 17, 0))).toBe('20261124');
  });
});

describe('payment rules', () => {
  it('refundable is what was paid (or captured) minus refunds, only after success', () => {
    expect(refundableAmount({ status: 'SUCCEEDED', amount: 100, capturedAmount: 0, refundedAmount: 30, heldAmount: 0 })).toBe(70);
    expect(refundableAmount({ status: 'SUCCEEDED', amount: 100, capturedAmount: 80, refundedAmount: 0, heldAmount: 100 })).toBe(80);
    expect(refundableAmount({ status: 'REFUNDED', amount: 100, capturedAmount: 0, refundedAmount: 100, heldAmount: 0 })).toBe(0);
    expect(refundableAmount({ status: 'PENDING', amount: 100, capturedAmount: 0, refundedAmount: 0, heldAmount: 0 })).toBe(0);
  });

  it('the transition table: gateway money after expiry or cancellation still settles; a full refund is final', () => {
    expect(paymentMachine.can('settle', 'EXPIRED', ['gateway'])).toBe(true);
    expect(paymentMachine.can('settle', 'FAILED', ['gateway'])).toBe(false);
    expect(() => paymentMachine.check('refund', 'REFUNDED', ['admin'])).toThrow(expect.objectContaining({ code: 'PAYMENT_TRANSITION', statusCode: 409 }));
    expect(() => paymentMachine.check('settle', 'PENDING', ['payer'])).toThrow(expect.objectContaining({ code: 'PAYMENT_TRANSITION' }));
    expect(paymentMachine.allowed('SUCCEEDED', ['payer'])).toEqual(['refund', 'refundPart']);
    expect(isOverdue({ status: 'PENDING', expiresAt: 1_000 }, 1_000)).toBe(true);
    expect(isOverdue({ status: 'SUCCEEDED', expiresAt: 1_000 }, 5_000)).toBe(false);
  });
});
