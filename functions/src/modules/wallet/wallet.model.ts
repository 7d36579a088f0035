import * as z from 'zod/mini';
import { describe, lazySchema, nullableTimestamp, timestamp, type RecordOf } from '../../platform/kits/firestore/documents';
import type { Identified } from '../../platform/kits/firestore/records';
import { defineMachine } from '../../platform/kits/state-machine/state-machine';
import type { TransferRecord, UserAccountType } from './ledger.model';
import { iso } from '../../platform/kits/time/time';

export { ADJUSTMENTS, STAFF_TOTALS, WITHDRAWALS } from './wallet.collections';

export const P2P_MIN_VND = 1_000;
export const WITHDRAWAL_MIN_VND = 50_000;
export const WITHDRAWAL_MAX_VND = 200_000_000;
export const ADJUSTMENT_MAX_VND = 50_000_000;

export const WITHDRAWAL_STATUSES = ['PENDING', 'APPROVED', 'REJECTED', 'CANCELLED'] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];
export type WithdrawalAction = 'approve' | 'reject' | 'cancel';
export type WithdrawalActor = 'owner' | 'admin';

// A withdrawal reserves the amount on the earnings account when requested (the owner cannot ask twice for the
// same money); approval moves it to payouts in transit, rejection or cancellation frees the reserve.
export const withdrawalMachine = defineMachine<WithdrawalStatus, WithdrawalAction, WithdrawalActor>({
  entity: 'withdrawal',
  states: WITHDRAWAL_STATUSES,
  moves: {
    approve: { from: 'PENDING', to: 'APPROVED', by: 'admin' },
    reject: { from: 'PENDING', to: 'REJECTED', by: 'admin' },
    cancel: { from: 'PENDING', to: 'CANCELLED', by: 'owner' },
  },
  codes: { transition: 'WITHDRAWAL_TRANSITION', actor: 'WITHDRAWAL_TRANSITION' },
});

/** How users see a staff member in what they can read (ledger entries, withdrawals): never the id. */
export const STAFF_LABEL = 'STAFF';
export const ADJUSTMENT_STATUSES = ['APPLIED', 'PENDING', 'APPROVED', 'REJECTED'] as const;
export type AdjustmentStatus = (typeof ADJUSTMENT_STATUSES)[number];
export type AdjustmentAction = 'approve' | 'reject';

// Four eyes on money: an adjustment above WALLET_ADJUSTMENT_APPROVAL_VND waits PENDING until a second
// administrator approves it (the money moves then) or someone rejects it; smaller ones are APPLIED at once.
export const adjustmentMachine = defineMachine<AdjustmentStatus, AdjustmentAction, 'admin'>({
  entity: 'adjustment',
  states: ADJUSTMENT_STATUSES,
  moves: {
    approve: { from: 'PENDING', to: 'APPROVED', by: 'admin' },
    reject: { from: 'PENDING', to: 'REJECTED', by: 'admin' },
  },
  codes: { transition: 'ADJUSTMENT_TRANSITION', actor: 'ADJUSTMENT_TRANSITION' },
});

/** `wallet_adjustments/{operationId}`: an administrator's correction of a user's wallet, and who approved it. */
export interface AdjustmentRecord {
  id: string;
  userId: string;
  amount: number;
  direction: 'CREDIT' | 'DEBIT';
  reason: string;
  status: AdjustmentStatus;
  requestedBy: string;
  decidedBy: string | null;
  decidedAt: number | null;
  decisionReason: string | null;
  /** The ledger transfer, once the money moved. */
  transferId: string | null;
  createdAt: number;
  updatedAt: number;
}

const bankAccount = () => z.object({ bankCode: z.string(), accountNumber: z.string(), accountName: z.string() });
export type BankAccount = z.output<ReturnType<typeof bankAccount>>;

/** `wallet_withdrawals/{withdrawalId}`: a withdrawal of earnings to a bank account, read live by its owner. */
export const withdrawalDocument = lazySchema(() =>
  describe(
    z.object({
      userId: describe(z.string(), 'The owner: the only one who may read it (firestore.rules).'),
      amount: describe(z.number(), 'VND.'),
      bankAccount: describe(bankAccount(), 'Where the money goes.'),
      status: describe(z.enum(WITHDRAWAL_STATUSES), 'PENDING → APPROVED | REJECTED (staff), or CANCELLED (owner).'),
      note: describe(z.nullable(z.string()), "The owner's note."),
      reason: describe(z.nullable(z.string()), 'Why it was rejected or cancelled.'),
      decidedBy: describe(z.nullable(z.string()), 'The owner (a cancellation) or `STAFF`.'),
      decidedAt: nullableTimestamp('when it was decided.'),
      operationId: describe(z.nullable(z.string()), 'The ledger operation of the approval (earnings → payouts in transit).'),
      createdAt: timestamp('when it was requested.'),
      updatedAt: timestamp('last change.'),
    }),
    'A withdrawal of earnings.',
  ),
);
export type WithdrawalRecord = Identified & RecordOf<typeof withdrawalDocument>;

/** `wallet_transfers/{operationId}`: a P2P transfer between two users (its money moved by the ledger transfer). */
export interface P2pRecord {
  id: string;
  fromUserId: string;
  toUserId: string;
  amount: number;
  note: string | null;
  /** The ledger transfer that moved the money. */
  transferId: string;
  at: number;
}

export type Direction = 'IN' | 'OUT';

/** A transfer as the owner of `accountId` sees it: money in or out of that account, and the other side. */
export function entryView(transfer: TransferRecord, accountId: string) {
  const direction: Direction = transfer.credit === accountId ? 'IN' : 'OUT';
  const other = direction === 'IN' ? transfer.debit : transfer.credit;
  return {
    id: transfer.id,
    kind: transfer.kind,
    direction,
    amount: transfer.amount,
    account: accountTypeOf(accountId),
    balanceAfter: direction === 'IN' ? transfer.creditBalanceAfter : transfer.debitBalanceAfter,
    counterparty: counterpartyOf(other),
    memo: transfer.memo,
    paymentId: transfer.paymentId,
    ref: transfer.ref,
    at: iso(transfer.at),
  };
}

/** The user-facing name of the other account: a person's wallet shows their id, system accounts their role. */
export function counterpartyOf(accountId: string): { type: string; userId: string | null } {
  for (const [prefix, type] of [
    ['wallet_', 'WALLET'],
    ['held_', 'HELD'],
    ['earnings_', 'EARNINGS'],
  ] as const) {
    if (accountId.startsWith(prefix)) return { type, userId: accountId.slice(prefix.length) };
  }
  if (accountId.startsWith('clearing_')) return { type: `GATEWAY_${accountId.slice('clearing_'.length)}`, userId: null };
  const names: Record<string, string> = { platform_revenue: 'PLATFORM', payouts_transit: 'PAYOUT', platform_adjustments: 'ADJUSTMENT' };
  return { type: names[accountId] ?? 'SYSTEM', userId: null };
}

function accountTypeOf(accountId: string): UserAccountType | 'SYSTEM' {
  if (accountId.startsWith('wallet_')) return 'WALLET';
  if (accountId.startsWith('held_')) return 'HELD';
  if (accountId.startsWith('earnings_')) return 'EARNINGS';
  return 'SYSTEM';
}
