// Public face of the wallet module: the double-entry ledger every money movement goes through. The payments
// module (charges, holds, refunds, gateways) posts its transfers here; nothing else writes balances.
import type { Transaction } from 'firebase-admin/firestore';
import type { Leg, TransferRecord } from './ledger.model';
import type { PostContext } from './ledger.repo';
import { userAccountId } from './ledger.model';

export {
  PROVIDERS,
  SYSTEM_ACCOUNTS,
  operationIdFor,
  systemAccount,
  userAccount,
  userAccountId,
  type Leg,
  type Provider,
  type TransferRecord,
} from './ledger.model';
export type { PostContext } from './ledger.repo';
export { activeMoneyStaff, countStaffMoney, countTowardDailyLimit, insufficientFunds, mapFunds } from './wallet.service';
export { STAFF_LABEL } from './wallet.model';

const repo = () => (require('./ledger.repo') as typeof import('./ledger.repo')).ledgerRepo;

export const ledger = {
  /** Posts one operation's legs in the caller's transaction (after the caller's reads); 409-mappable InsufficientFundsError. */
  post: (tx: Transaction, legs: readonly Leg[], ctx: PostContext): Promise<TransferRecord[]> => repo().post(tx, legs, ctx),
  /**
   * Whether a driver may take a cash job that leaves them owing `owedVnd` more (cash they collect for others): their
   * earnings stay at or above −`limitVnd` (DRIVER_CASH_DEBT_LIMIT_VND). Read in the caller's transaction.
   */
  txMayOweCash: async (tx: Transaction, driverId: string, owedVnd: number, limitVnd: number): Promise<boolean> =>
    owedVnd <= 0 || (await repo().balances([userAccountId('EARNINGS', driverId)], tx))[0].balance - owedVnd >= -limitVnd,
  /** The transfers an operation posted (empty when it has not run), read in the caller's transaction: posting once per operation. */
  posted: (operationId: string, tx?: Transaction): Promise<TransferRecord[]> => repo().posted(operationId, tx),
  /** One account's balance, read in the caller's transaction (before it writes). */
  balance: async (tx: Transaction, accountId: string): Promise<number> => (await repo().balances([accountId], tx))[0].balance,
  /**
   * `post` in two halves, for a transaction that reads more beside it: reads the accounts and checks the floors
   * (InsufficientFundsError, nothing written); the returned function writes, after every read of the transaction.
   */
  prepare: (tx: Transaction, legs: readonly Leg[], ctx: PostContext): Promise<() => TransferRecord[]> => repo().prepare(tx, legs, ctx),
};

/** The user's own wallet as GET /wallet answers it (balance and held, integer VND). */
export function walletOf(config: Readonly<import('../../platform/core/config').AppConfig>, userId: string) {
  return (require('./wallet.wiring') as typeof import('./wallet.wiring')).walletServiceFor(config).wallet(userId);
}
