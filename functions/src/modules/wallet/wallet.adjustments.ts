import { inTransaction } from '../../platform/core/firebase/firebase';
import { ConflictError, ForbiddenError, NotFoundError } from '../../platform/core/errors/app-error';
import type { PageRequest } from '../../platform/kits/firestore/paginate';
import { vnd, type Vnd } from '../../platform/kits/money/money';
import { transition } from '../../platform/kits/state-machine/state-machine';
import { accounts } from '../users';
import { operationIdFor, systemAccount, SYSTEM_ACCOUNTS, transferIdOf, userAccount, type Leg } from './ledger.model';
import { ledgerRepo } from './ledger.repo';
import { adjustmentsRepo } from './adjustments.repo';
import { adjustmentMachine, STAFF_LABEL, type AdjustmentRecord, type AdjustmentStatus } from './wallet.model';
import { iso } from '../../platform/kits/time/time';

import { activeMoneyStaff, countStaffMoney, mapFunds, type WalletServiceDeps } from './wallet.funds';

const adjustmentView = (a: AdjustmentRecord) => ({
  ...a,
  decidedAt: a.decidedAt === null ? null : iso(a.decidedAt),
  createdAt: iso(a.createdAt),
  updatedAt: iso(a.updatedAt),
});

/** Administrators' corrections of a wallet: applied at once up to the approval threshold, else by a second administrator. */
export function adjustmentsPart(deps: WalletServiceDeps, now: () => number) {
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

  return { adjust, decideAdjustment, adminAdjustments };
}
