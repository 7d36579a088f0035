import { db, inTransaction } from '../../platform/core/firebase/firebase';
import { oneAtATime } from '../../platform/kits/firestore/one-at-a-time';
import { BadRequestError, ConflictError, contendedError, ForbiddenError, NotFoundError } from '../../platform/core/errors/app-error';
import type { PageRequest } from '../../platform/kits/firestore/paginate';
import { vnd, type Vnd } from '../../platform/kits/money/money';
import { transition } from '../../platform/kits/state-machine/state-machine';
import { accounts } from '../users';
import {
  accountOf,
  checkBalances,
  operationIdFor,
  systemAccount,
  SYSTEM_ACCOUNT_SHARDS,
  SYSTEM_ACCOUNTS,
  userAccount,
  userAccountId,
  vietnamDay,
  type TransferKind,
  type UserAccountType,
} from './ledger.model';
import { ledgerRepo } from './ledger.repo';
import {
  entryView,
  P2P_MIN_VND,
  STAFF_LABEL,
  WITHDRAWALS,
  withdrawalMachine,
  type BankAccount,
  type WithdrawalRecord,
  type WithdrawalStatus,
} from './wallet.model';
import { withdrawalsRepo } from './withdrawals.repo';
import { adjustmentsPart } from './wallet.adjustments';
import { countTowardDailyLimit, mapFunds, type WalletServiceDeps } from './wallet.funds';
import { iso } from '../../platform/kits/time/time';

export type { WalletServiceDeps } from './wallet.funds';

export { activeMoneyStaff, countStaffMoney, countTowardDailyLimit, insufficientFunds, mapFunds } from './wallet.funds';

const withdrawalView = (w: WithdrawalRecord) => ({
  ...w,
  decidedAt: w.decidedAt === null ? null : iso(w.decidedAt),
  createdAt: iso(w.createdAt),
  updatedAt: iso(w.updatedAt),
});
export type WithdrawalView = ReturnType<typeof withdrawalView>;

/** A sender's transfers queued here longer than the cap: nothing was moved, the same key may retry. */
const walletBusy = () => contendedError('Too many transfers from this wallet at this moment; retry shortly');

export function createWalletService(deps: WalletServiceDeps) {
  const now = deps.now ?? Date.now;
  const { adjust, decideAdjustment, adminAdjustments } = adjustmentsPart(deps, now);

  async function wallet(userId: string) {
    const [main, held] = await ledgerRepo.balances([userAccountId('WALLET', userId), userAccountId('HELD', userId)]);
    return { userId, currency: 'VND' as const, balance: main.balance, held: held.balance };
  }

  async function earnings(userId: string) {
    const [account] = await ledgerRepo.balances([userAccountId('EARNINGS', userId)]);
    return {
      userId,
      currency: 'VND' as const,
      balance: account.balance,
      reserved: account.reserved,
      available: Math.max(0, account.balance - account.reserved),
    };
  }

  async function limits(userId: string) {
    const sent = await ledgerRepo.sentToday(userId, vietnamDay(now()));
    return {
      currency: 'VND' as const,
      dailyTransferLimit: deps.dailyTransferLimit,
      sentToday: sent,
      remainingToday: Math.max(0, deps.dailyTransferLimit - sent),
      minTransfer: P2P_MIN_VND,
    };
  }

  async function transactions(userId: string, filter: { account: UserAccountType; kind?: TransferKind }, page: Pick<PageRequest, 'limit' | 'cursor'>) {
    const accountId = userAccountId(filter.account, userId);
    const result = await ledgerRepo.transfersOf(
      accountId,
      { kind: filter.kind },
      { ...page, query: `wallet:tx:${filter.account}:${filter.kind ?? ''}`, caller: userId },
    );
    return { items: result.items.map((t) => entryView(t, accountId)), nextCursor: result.nextCursor };
  }

  async function transaction(userId: string, id: string) {
    const found = await ledgerRepo.transfer(id);
    if (!found || !found.owners.includes(userId)) throw new NotFoundError('No such transaction');
    const mine = [found.credit, found.debit].find((a) => accountOf(a).ownerId === userId)!;
    return entryView(found, mine);
  }

  /**
   * Sends money to another user's wallet. The transfer id derives from the caller's Idempotency-Key, so a retry
   * (even after the 24 h replay window, or after a crash between commit and answer) finds the first transfer.
   */
  async function sendToUser(senderId: string, input: { toUserId: string; amount: Vnd; note?: string | null }, idempotencyKey: string) {
    if (input.toUserId === senderId) throw new BadRequestError('You cannot send money to yourself').withCode('WALLET_SELF_TRANSFER');
    if (input.amount < P2P_MIN_VND)
      throw new BadRequestError(`The smallest transfer is ${P2P_MIN_VND} VND`, [{ field: 'body.amount', message: `must be at least ${P2P_MIN_VND}` }]);
    const operationId = operationIdFor('wallet.p2p', senderId, idempotencyKey);
    const at = now();
    // One sender's transfers one at a time here: each reads and writes the sender's wallet and daily-limit documents.
    const [transfer] = await mapFunds(() =>
      oneAtATime(`wallet.p2p/${senderId}`, walletBusy, () =>
        inTransaction(async (tx) => {
          const done = await ledgerRepo.posted(operationId, tx);
          if (done.length > 0) return done;
          const recipient = await accounts.get(input.toUserId, tx);
          if (!recipient) throw new NotFoundError('No such recipient');
          if (recipient.status !== 'ACTIVE' || recipient.disabled)
            throw new ConflictError('The recipient cannot receive money now').withCode('WALLET_RECIPIENT_UNAVAILABLE');
          const countSent = await countTowardDailyLimit(tx, senderId, input.amount, deps.dailyTransferLimit, at);
          const posted = await ledgerRepo.post(
            tx,
            [
              {
                kind: 'P2P',
                debit: userAccount('WALLET', senderId),
                credit: userAccount('WALLET', input.toUserId),
                amount: input.amount,
                memo: input.note ?? null,
              },
            ],
            { operationId, by: senderId, now: at },
          );
          countSent();
          ledgerRepo.createP2p(tx, {
            id: operationId,
            fromUserId: senderId,
            toUserId: input.toUserId,
            amount: input.amount,
            note: input.note ?? null,
            transferId: posted[0].id,
            at,
          });
          return posted;
        }),
      ),
    );
    return { ...entryView(transfer, userAccountId('WALLET', senderId)), toUserId: transfer.credit.slice('wallet_'.length) };
  }

  async function requestWithdrawal(userId: string, input: { amount: Vnd; bankAccount: BankAccount; note?: string | null }, idempotencyKey: string) {
    const id = operationIdFor('wallet.withdrawal', userId, idempotencyKey);
    const at = now();
    const earningsId = userAccountId('EARNINGS', userId);
    return withdrawalView(
      await mapFunds(() =>
        inTransaction(async (tx) => {
          const existing = await withdrawalsRepo.get(id, tx);
          if (existing) return existing;
          const record: WithdrawalRecord = {
            id,
            userId,
            amount: input.amount,
            bankAccount: input.bankAccount,
            status: 'PENDING',
            note: input.note ?? null,
            reason: null,
            decidedBy: null,
            decidedAt: null,
            operationId: null,
            createdAt: at,
            updatedAt: at,
          };
          await ledgerRepo.post(tx, [], { operationId: `reserve-${id}`, by: userId, now: at }, { [earningsId]: input.amount });
          withdrawalsRepo.create(tx, record);
          return record;
        }),
      ),
    );
  }

  // The owner sees STAFF for a decision by staff (records older than that rule may still hold the id).
  const ownerView = (w: WithdrawalRecord) => withdrawalView({ ...w, decidedBy: w.decidedBy && w.decidedBy !== w.userId ? STAFF_LABEL : w.decidedBy });

  async function withdrawal(userId: string, id: string) {
    const found = await withdrawalsRepo.get(id);
    if (!found || found.userId !== userId) throw new NotFoundError('No such withdrawal');
    return ownerView(found);
  }

  async function myWithdrawals(userId: string, page: Pick<PageRequest, 'limit' | 'cursor'>) {
    const result = await withdrawalsRepo.listOf(userId, { ...page, query: 'wallet:withdrawals', caller: userId });
    return { items: result.items.map(ownerView), nextCursor: result.nextCursor };
  }

  // Staff see who decided, from the staff-only events (the record says STAFF).
  const staffView = async (w: WithdrawalRecord) =>
    withdrawalView(w.decidedBy === STAFF_LABEL ? { ...w, decidedBy: (await withdrawalsRepo.decidedBy(w.id)) ?? STAFF_LABEL } : w);

  async function adminWithdrawals(filter: { status?: WithdrawalStatus; userId?: string }, page: Pick<PageRequest, 'limit' | 'cursor'>, adminId: string) {
    const result = await withdrawalsRepo.list(filter, {
      ...page,
      query: `wallet:admin:withdrawals:${filter.status ?? ''}:${filter.userId ?? ''}`,
      caller: adminId,
    });
    return { items: await Promise.all(result.items.map(staffView)), nextCursor: result.nextCursor };
  }

  // Approval moves the reserved amount from earnings to payouts in transit (paid out by the bank run);
  // rejection and cancellation free it. One transaction each: the reserve and the status cannot disagree.
  async function decideWithdrawal(action: 'approve' | 'reject' | 'cancel', id: string, actor: { userId: string; admin: boolean }, reason: string | null) {
    if (!actor.admin) {
      const found = await withdrawalsRepo.get(id);
      if (!found || found.userId !== actor.userId) throw new NotFoundError('No such withdrawal');
    }
    const at = now();
    const { after } = await mapFunds(() =>
      transition(
        withdrawalMachine,
        {
          load: (tx) => withdrawalsRepo.get(id, tx),
          ref: () => db().collection(WITHDRAWALS).doc(id),
          alongside: async (tx, next) => {
            const earnings = userAccount('EARNINGS', next.userId);
            const legs =
              action === 'approve'
                ? [
                    {
                      kind: 'WITHDRAWAL' as const,
                      debit: earnings,
                      credit: systemAccount(SYSTEM_ACCOUNTS.payoutsInTransit),
                      amount: vnd(next.amount),
                      memo: `withdrawal ${id}`,
                    },
                  ]
                : [];
            await ledgerRepo.post(
              tx,
              legs,
              { operationId: `withdrawal-${id}`, by: actor.admin ? STAFF_LABEL : actor.userId, now: at, ref: { type: 'WITHDRAWAL', id } },
              { [earnings.id]: -next.amount },
            );
          },
          save: (tx, next) => withdrawalsRepo.save(tx, next),
        },
        {
          action,
          by: actor.userId,
          now: at,
          reason,
          rolesOf: (w) => [...(actor.admin ? (['admin'] as const) : []), ...(w.userId === actor.userId ? (['owner'] as const) : [])],
          apply: (w, to) => {
            // Four eyes: an administrator's own withdrawal is approved by another one.
            if (action === 'approve' && w.userId === actor.userId)
              throw new ForbiddenError('An administrator does not approve their own withdrawal; another one does').withCode('WITHDRAWAL_SELF_APPROVAL');
            return {
              ...w,
              status: to,
              reason,
              decidedBy: actor.admin ? STAFF_LABEL : actor.userId,
              decidedAt: at,
              updatedAt: at,
              operationId: action === 'approve' ? `withdrawal-${id}` : null,
            };
          },
          missing: () => new NotFoundError('No such withdrawal'),
        },
      ),
    );
    // The deciding administrator sees itself; the record (which the owner reads) says STAFF, the events keep the id.
    return withdrawalView(actor.admin ? { ...after, decidedBy: actor.userId } : after);
  }

  /** A user's wallet for an administrator: 404 for an account that does not exist. */
  async function userWallet(userId: string) {
    if (!(await accounts.get(userId))) throw new NotFoundError('No such user');
    return wallet(userId);
  }

  async function systemBalances() {
    const ids = Object.keys(SYSTEM_ACCOUNT_SHARDS).sort();
    const balances = await ledgerRepo.balances(ids);
    return {
      currency: 'VND' as const,
      accounts: balances.map((b) => ({ accountId: b.accountId, balance: b.balance, shards: SYSTEM_ACCOUNT_SHARDS[b.accountId] })),
    };
  }

  /** Whether a user's accounts agree with their transfers (one consistent snapshot). */
  async function checkUser(userId: string) {
    if (!(await accounts.get(userId))) throw new NotFoundError('No such user');
    const ids = (['WALLET', 'HELD', 'EARNINGS'] as const).map((t) => userAccountId(t, userId));
    const { stored, transfers } = await ledgerRepo.snapshot(ids);
    const result = checkBalances(transfers, stored);
    const mine = result.accounts.filter((a) => ids.includes(a.accountId));
    return {
      userId,
      ok: mine.every((a) => a.ok),
      accounts: ids.map((id) => mine.find((a) => a.accountId === id) ?? { accountId: id, stored: 0, fromTransfers: 0, ok: true }),
    };
  }

  return {
    wallet,
    userWallet,
    earnings,
    limits,
    transactions,
    transaction,
    sendToUser,
    requestWithdrawal,
    withdrawal,
    myWithdrawals,
    adminWithdrawals,
    decideWithdrawal,
    adjust,
    decideAdjustment,
    adminAdjustments,
    systemBalances,
    checkUser,
  };
}

export type WalletService = ReturnType<typeof createWalletService>;
