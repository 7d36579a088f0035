import type { Transaction } from 'firebase-admin/firestore';
import { ConflictError } from '../../platform/core/errors/app-error';
import { holdsPermission } from '../../platform/core/auth/roles';
import { InsufficientFundsError, vietnamDay } from './ledger.model';
import { ledgerRepo } from './ledger.repo';
import { adjustmentsRepo } from './adjustments.repo';

export interface WalletServiceDeps {
  dailyTransferLimit: number;
  /** WALLET_ADJUSTMENT_APPROVAL_VND: adjustments above it wait for a second administrator. */
  adjustmentApprovalVnd: number;
  now?: () => number;
}

/** 409 WALLET_INSUFFICIENT_FUNDS with what the account holds and what the operation needs. */
export function insufficientFunds(err: InsufficientFundsError): ConflictError {
  return new ConflictError('The balance does not cover this amount', { available: err.available, needed: err.needed }).withCode('WALLET_INSUFFICIENT_FUNDS');
}

export async function mapFunds<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof InsufficientFundsError) throw insufficientFunds(err);
    throw err;
  }
}

/**
 * Counts `amount` toward what the user sent to others today (P2P transfers, tips: one daily limit), in the caller's
 * transaction: reads first (call it before the ledger posts), 409 WALLET_DAILY_LIMIT when over; the returned
 * write records the new total (call it after the caller's other reads).
 */
export async function countTowardDailyLimit(tx: Transaction, userId: string, amount: number, limit: number, at: number): Promise<() => void> {
  const day = vietnamDay(at);
  const sent = await ledgerRepo.sentOn(tx, userId, day);
  if (sent + amount > limit) {
    throw new ConflictError('This is over your daily limit for sending money', {
      dailyTransferLimit: limit,
      remainingToday: Math.max(0, limit - sent),
    }).withCode('WALLET_DAILY_LIMIT');
  }
  return () => ledgerRepo.setSentOn(tx, userId, day, sent + amount, at);
}

/**
 * Four eyes on split money: what one staff member moved by adjustments and staff refunds on a Vietnam day, and what
 * staff moved to or from one user, counted in the caller's transaction (reads first, before the ledger posts). When
 * either total with `amount` would pass `threshold` (WALLET_ADJUSTMENT_APPROVAL_VND) the operation waits for a
 * second administrator and counts nothing; otherwise call `count` after the caller's other reads.
 */
export async function countStaffMoney(
  tx: Transaction,
  input: { adminId: string; userId: string; amount: number; threshold: number; at: number },
): Promise<{ needsApproval: boolean; count: () => void }> {
  const day = vietnamDay(input.at);
  const ids = [`admin_${input.adminId}_${day}`, `user_${input.userId}_${day}`];
  const totals = [await adjustmentsRepo.staffTotal(tx, ids[0]), await adjustmentsRepo.staffTotal(tx, ids[1])];
  const needsApproval = totals.some((t) => t + input.amount > input.threshold);
  return { needsApproval, count: () => ids.forEach((id, i) => adjustmentsRepo.setStaffTotal(tx, id, totals[i] + input.amount, input.at)) };
}

/** Whether an administrator may still ask for staff money moves: an active ADMIN holding payments.manage. */
export function activeMoneyStaff(user: { roles: readonly string[]; permissions?: readonly string[]; disabled: boolean; status: string } | undefined): boolean {
  return !!user && user.roles.includes('ADMIN') && !user.disabled && user.status === 'ACTIVE' && holdsPermission(user.permissions, 'payments.manage');
}
