import { z } from 'zod';
import { PageQuerySchema } from '../../platform/kits/firestore/paginate';
import { DocumentIdSchema } from '../../platform/core/http/ids';
import { VndSchema } from '../../platform/kits/money/money.schemas';
import { TRANSFER_KINDS } from './ledger.model';
import { ADJUSTMENT_MAX_VND, ADJUSTMENT_STATUSES, P2P_MIN_VND, WITHDRAWAL_MAX_VND, WITHDRAWAL_MIN_VND, WITHDRAWAL_STATUSES } from './wallet.model';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';

const Amount = z.number().int();
const Note = z.string().trim().max(140);

export const WalletSchema = z
  .object({
    userId: z.string(),
    currency: z.literal('VND'),
    balance: Amount.describe('Spendable balance in VND'),
    held: Amount.describe('Money held for rides in progress and deposits (not spendable until released)'),
  })
  .meta({ id: 'Wallet' });

export const EarningsSchema = z
  .object({
    userId: z.string(),
    currency: z.literal('VND'),
    balance: Amount.describe('Earnings in VND; below zero when commissions of cash payments are owed'),
    reserved: Amount.describe('Set aside for pending withdrawals'),
    available: Amount.describe('What a new withdrawal can take: balance − reserved'),
  })
  .meta({ id: 'Earnings' });

export const WalletLimitsSchema = z
  .object({ currency: z.literal('VND'), dailyTransferLimit: Amount, sentToday: Amount, remainingToday: Amount, minTransfer: Amount })
  .meta({ id: 'WalletLimits' });

export const WalletEntrySchema = z
  .object({
    id: z.string().describe('Transfer id'),
    kind: z.enum(TRANSFER_KINDS),
    direction: z.enum(['IN', 'OUT']).describe('Money into or out of this account'),
    amount: Amount,
    account: z.enum(['WALLET', 'HELD', 'EARNINGS', 'SYSTEM']),
    balanceAfter: Amount.nullable().describe("The account's balance right after this entry"),
    counterparty: z.object({
      type: z.string().describe('WALLET, HELD, EARNINGS, PLATFORM, PAYOUT, ADJUSTMENT or GATEWAY_<provider>'),
      userId: z.string().nullable(),
    }),
    memo: z.string().nullable(),
    paymentId: z.string().nullable(),
    ref: z.object({ type: z.string(), id: z.string() }).nullable().describe('The ride, order, booking or withdrawal it belongs to'),
    at: IsoTimeSchema,
  })
  .meta({ id: 'WalletEntry' });

export const WalletEntryListSchema = z.object({ items: z.array(WalletEntrySchema), nextCursor: z.string().nullable() }).meta({ id: 'WalletEntryList' });

export const TransactionsQuerySchema = PageQuerySchema.extend({
  account: z.enum(['WALLET', 'HELD', 'EARNINGS']).default('WALLET').describe('Which of my accounts'),
  kind: z.enum(TRANSFER_KINDS).optional(),
});

export const TransferBodySchema = z
  .object({
    toUserId: DocumentIdSchema.describe('The recipient account id'),
    amount: VndSchema.refine((n) => n >= P2P_MIN_VND, { message: `must be at least ${P2P_MIN_VND}` }),
    note: Note.optional(),
  })
  .meta({ id: 'WalletTransferRequest' });

export const TransferResultSchema = WalletEntrySchema.extend({ toUserId: z.string() }).meta({ id: 'WalletTransferResult' });

const BankAccountSchema = z
  .object({
    bankCode: z
      .string()
      .trim()
      .regex(/^[A-Z0-9]{2,12}$/, { message: 'must be a bank code such as VCB, TCB, MB' }),
    accountNumber: z
      .string()
      .trim()
      .regex(/^\d{6,20}$/, { message: 'must be 6 to 20 digits' }),
    accountName: z.string().trim().min(2).max(100),
  })
  .meta({ id: 'BankAccount' });

export const WithdrawalBodySchema = z
  .object({
    amount: VndSchema.refine((n) => n >= WITHDRAWAL_MIN_VND && n <= WITHDRAWAL_MAX_VND, { message: `must be ${WITHDRAWAL_MIN_VND} to ${WITHDRAWAL_MAX_VND}` }),
    bankAccount: BankAccountSchema,
    note: Note.optional(),
  })
  .meta({ id: 'WithdrawalRequest' });

export const WithdrawalSchema = z
  .object({
    id: z.string(),
    userId: z.string(),
    amount: Amount,
    bankAccount: BankAccountSchema,
    status: z.enum(WITHDRAWAL_STATUSES),
    note: z.string().nullable(),
    reason: z.string().nullable().describe('Why it was rejected or cancelled'),
    decidedBy: z.string().nullable(),
    decidedAt: IsoTimeSchema.nullable(),
    createdAt: IsoTimeSchema,
    updatedAt: IsoTimeSchema,
  })
  .meta({ id: 'Withdrawal' });

export const WithdrawalListSchema = z.object({ items: z.array(WithdrawalSchema), nextCursor: z.string().nullable() }).meta({ id: 'WithdrawalList' });

export const AdminWithdrawalQuerySchema = PageQuerySchema.extend({ status: z.enum(WITHDRAWAL_STATUSES).optional(), userId: DocumentIdSchema.optional() });

export const DecisionBodySchema = z.object({ reason: z.string().trim().min(1).max(300).optional() }).meta({ id: 'WithdrawalDecision' });
export const RejectBodySchema = z.object({ reason: z.string().trim().min(1).max(300) }).meta({ id: 'WithdrawalRejection' });

export const AdjustmentBodySchema = z
  .object({
    userId: DocumentIdSchema,
    amount: VndSchema.refine((n) => n <= ADJUSTMENT_MAX_VND, { message: `must be at most ${ADJUSTMENT_MAX_VND}` }),
    direction: z.enum(['CREDIT', 'DEBIT']).describe('CREDIT adds to the wallet, DEBIT takes from it (never below zero)'),
    reason: z.string().trim().min(3).max(300),
  })
  .meta({ id: 'WalletAdjustment' });

export const SystemAccountsSchema = z
  .object({ currency: z.literal('VND'), accounts: z.array(z.object({ accountId: z.string(), balance: Amount, shards: z.number().int() })) })
  .meta({ id: 'SystemAccounts' });

export const LedgerCheckSchema = z
  .object({
    userId: z.string(),
    ok: z.boolean(),
    accounts: z.array(z.object({ accountId: z.string(), stored: Amount, fromTransfers: Amount, ok: z.boolean() })),
  })
  .meta({ id: 'LedgerCheck' });

// Account ids are Firebase Auth uids (at most 128 characters); ledger ids prefix them (`earnings_<uid>`), so an
// unbounded path id could pass the 1,500-byte document id limit inside Firestore (a 500) instead of at the edge.
const USER_ID_MAX = 128;
export const UserIdParamsSchema = z.object({
  userId: DocumentIdSchema.refine((v) => v.length <= USER_ID_MAX, { message: `must be a user id (at most ${USER_ID_MAX} characters)` }),
});

export const AdjustmentSchema = z
  .object({
    id: z.string(),
    userId: z.string(),
    amount: Amount,
    direction: z.enum(['CREDIT', 'DEBIT']),
    reason: z.string(),
    status: z
      .enum(ADJUSTMENT_STATUSES)
      .describe(
        'APPLIED at once (up to WALLET_ADJUSTMENT_APPROVAL_VND), else PENDING until a second administrator approves (APPROVED: the money moved) or someone rejects it',
      ),
    requestedBy: z.string(),
    decidedBy: z.string().nullable(),
    decidedAt: IsoTimeSchema.nullable(),
    decisionReason: z.string().nullable(),
    transferId: z.string().nullable().describe('The ledger transfer, once the money moved'),
    createdAt: IsoTimeSchema,
    updatedAt: IsoTimeSchema,
  })
  .meta({ id: 'WalletAdjustmentRecord' });
export const AdjustmentListSchema = z.object({ items: z.array(AdjustmentSchema), nextCursor: z.string().nullable() }).meta({ id: 'WalletAdjustmentList' });
export const AdminAdjustmentQuerySchema = PageQuerySchema.extend({ status: z.enum(ADJUSTMENT_STATUSES).optional() });
