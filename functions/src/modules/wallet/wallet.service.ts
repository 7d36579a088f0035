import type { Transaction } from 'firebase-admin/firestore';
import { db, inTransaction } from '../../platform/core/firebase/firebase';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../platform/core/errors/app-error';
import type { PageRequest } from '../../platform/kits/firestore/paginate';
import { vnd, type Vnd } from '../../platform/kits/money/money';
import { transition } from '../../platform/kits/state-machine/state-machine';
import { holdsPermission } from '../../platform/core/auth/roles';
import { accounts } from '../users';
import {
  accountOf,
  checkBalances,
  InsufficientFundsError,
  operationIdFor,
  systemAccount,
  SYSTEM_ACCOUNT_SHARDS,
  SYSTEM_ACCOUNTS,
  transferIdOf,
  userAccount,
  userAccountId,
  vietnamDay,
  type Leg,
  type TransferKind,
  type UserAccountType,
} from './ledger.model';
import { ledgerRepo } from './ledger.repo';
import { adjustmentsRepo } from './adjustments.repo';
import {
  adjustmentMachine,
  entryView,
  P2P_MIN_VND,
  STAFF_LABEL,
  WITHDRAWALS,
  withdrawalMachine,
  type AdjustmentRecord,
  type AdjustmentStatus,
  type BankAccount,
  type WithdrawalRecord,
  type WithdrawalStatus,
} from './wallet.model';
import { withdrawalsRepo } from './withdrawals.repo';
import { iso } from '../../platform/kits/time/time';

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

const adjustmentView = (a: AdjustmentRecord) => ({
  ...a,
  decidedAt: a.decidedAt === null ? null : iso(a.decidedAt),
  createdAt: iso(a.createdAt),
  updatedAt: iso(a.updatedAt),
});

const withdrawalView = (w: WithdrawalRecord) => ({
  ...w,
  decidedAt: w.decidedAt === null ? null : iso(w.decidedAt),
  createdAt: iso(w.createdAt),
  updatedAt: iso(w.updatedAt),
});
export type WithdrawalView = ReturnType<typeof withdrawalView>;

export function createWalletService(deps: WalletServiceDeps) {
  const now = deps.now ?? Date.now;

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
    const [transfer] = await mapFunds(() =>
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

  /** The ledger leg of an adjustment: between the user's wallet and platform adjustments, never an edit. */
  function adjustmentLeg(a: Pick<AdjustmentRecord, 'userId' | 'amount' | 'direction' | 'reason'>): Leg {
    const walletAccount = userAccount('WALLET', a.userId);
    const adjustments = systemAccount(SYSTEM_ACCOUNTS.adjustments);
    return a.direction === 'CREDIT'
      ? { kind: 'ADJUSTMENT', debit: adjustments, credit: walletAccount, amount: vnd(a.amount), memo: a.reason }
      : { kind: 'ADJUSTMENT', debit: walletAccount, credit: adjustments, amount: vnd(a.amount), memo: a.reason };
  }

  /**
   * An administrator's correction of a user's wallet. Never their own (403 WALLET_SELF_ADJUSTMENT). Up to
   * WALLET_ADJUSTMENT_APPROVAL_VND it is APPLIED at once; above, it waits PENDING for a second administrator.
   */
  async function adjust(adminId: string, input: { userId: string; amount: Vnd; direction: 'CREDIT' | 'DEBIT'; reason: string }, idempotencyKey: string) {
    if (input.userId === adminId)
      throw new ForbiddenError('An administrator does not adjust their own wallet; another one does').withCode('WALLET_SELF_ADJUSTMENT');
    const operationId = operationIdFor('wallet.adjustment', adminId, idempotencyKey);
    const at = now();
    return adjustmentView(
      await mapFunds(() =>
        inTransaction(async (tx) => {
          const existing = await adjustmentsRepo.get(operationId, tx);
          if (existing) return existing;
          if (!(await accounts.get(input.userId, tx))) throw new NotFoundError('No such user');
          // Above the threshold, alone or with what this admin (or staff, to this user) moved today: a second admin approves.
          const staffMoney = await countStaffMoney(tx, { adminId, userId: input.userId, amount: input.amount, threshold: deps.adjustmentApprovalVnd, at });
          const pending = staffMoney.needsApproval;
          const record: AdjustmentRecord = {
            id: operationId,
            ...input,
            status: pending ? 'PENDING' : 'APPLIED',
            requestedBy: adminId,
            decidedBy: null,
            decidedAt: null,
            decisionReason: null,
            transferId: null,
            createdAt: at,
            updatedAt: at,
          };
          if (!pending) {
            record.transferId = (
              await ledgerRepo.post(tx, [adjustmentLeg(record)], { operationId, by: STAFF_LABEL, now: at, ref: { type: 'ADJUSTMENT', id: operationId } })
            )[0].id;
            staffMoney.count();
          }
          adjustmentsRepo.create(tx, record);
          return record;
        }),
      ),
    );
  }

  /**
   * A second administrator approves (the money moves in the same transaction) or rejects a PENDING adjustment.
   * The requester does not approve their own (403 ADJUSTMENT_SELF_APPROVAL), nor anyone an adjustment of their wallet.
   */
  async function decideAdjustment(action: 'approve' | 'reject', id: string, adminId: string, reason: string | null) {
    const at = now();
    let requesterActive = false;
    const { after } = await mapFunds(() =>
      transition(
        adjustmentMachine,
        {
          load: async (tx) => {
            const found = await adjustmentsRepo.get(id, tx);
            // The requester is checked again now: one who lost ADMIN or payments.manage, or was locked, no longer vouches.
            if (found && action === 'approve') requesterActive = activeMoneyStaff(await accounts.get(found.requestedBy, tx));
            return found;
          },
          ref: () => adjustmentsRepo.ref(id),
          alongside: async (tx, next) => {
            if (action === 'approve')
              await ledgerRepo.post(tx, [adjustmentLeg(next)], { operationId: id, by: STAFF_LABEL, now: at, ref: { type: 'ADJUSTMENT', id } });
          },
          save: (tx, next) => adjustmentsRepo.save(tx, next),
        },
        {
          action,
          by: adminId,
          now: at,
          reason,
          rolesOf: () => ['admin'],
          apply: (a, to) => {
            if (action === 'approve' && a.requestedBy === adminId)
              throw new ForbiddenError('The administrator who asked for an adjustment does not approve it').withCode('ADJUSTMENT_SELF_APPROVAL');
            if (action === 'approve' && a.userId === adminId)
              throw new ForbiddenError('An administrator does not approve an adjustment of their own wallet').withCode('WALLET_SELF_ADJUSTMENT');
            if (action === 'approve' && !requesterActive)
              throw new ConflictError(
                'The administrator who asked for this adjustment no longer may (not an active ADMIN with payments.manage): reject it',
              ).withCode('ADJUSTMENT_REQUESTER_REVOKED');
            return {
              ...a,
              status: to,
              decidedBy: adminId,
              decidedAt: at,
              decisionReason: reason,
              transferId: action === 'approve' ? transferIdOf(id, 0) : null,
              updatedAt: at,
            };
          },
          missing: () => new NotFoundError('No such adjustment'),
        },
      ),
    );
    return adjustmentView(after);
  }

  async function adminAdjustments(filter: { status?: AdjustmentStatus }, page: Pick<PageRequest, 'limit' | 'cursor'>, adminId: string) {
    const result = await adjustmentsRepo.list(filter, { ...page, query: `wallet:admin:adjustments:${filter.status ?? ''}`, caller: adminId });
    return { items: result.items.map(adjustmentView), nextCursor: result.nextCursor };
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
