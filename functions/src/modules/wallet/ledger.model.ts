import { stableId } from '../../platform/kits/ids/stable-id';
import * as z from 'zod/mini';
import { describe, lazySchema, timestamp, type RecordOf } from '../../platform/kits/firestore/documents';
import type { Identified } from '../../platform/kits/firestore/records';
import { MoneyError, vnd, type Vnd } from '../../platform/kits/money/money';
import { iso } from '../../platform/kits/time/time';

// The double-entry ledger. Every movement of money is one immutable transfer that debits one account and
// credits another by the same positive amount, so the balances of all accounts always sum to zero. A user's
// wallet is credited by a top-up (the gateway's clearing account is debited: the gateway owes us that money),
// debited by a payment (the merchant's earnings and platform revenue are credited), and so on. Corrections are
// new transfers, never edits.

export { LEDGER_ACCOUNTS, LEDGER_SHARDS, LEDGER_TRANSFERS, WALLET_LIMITS, WALLET_TRANSFERS } from './wallet.collections';

export const ACCOUNT_TYPES = ['WALLET', 'HELD', 'EARNINGS', 'SYSTEM'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];
/** Per-user accounts: the spending wallet, money held for a ride or deposit, and a driver's or partner's earnings. */
export type UserAccountType = Exclude<AccountType, 'SYSTEM'>;

export const PROVIDERS = ['VNPAY', 'MOMO', 'MOCK'] as const;
export type Provider = (typeof PROVIDERS)[number];

export const TRANSFER_KINDS = [
  'TOPUP', // gateway clearing → wallet
  'P2P', // wallet → another user's wallet
  'PAYMENT', // wallet or clearing → earnings (merchant, driver) or platform revenue
  'FEE', // earnings → platform revenue (commission of a cash payment)
  'HOLD', // wallet → held
  'CAPTURE', // held → earnings or platform revenue
  'RELEASE', // held → wallet
  'REFUND', // the reverse of a payment or top-up
  'WITHDRAWAL', // earnings → payouts in transit
  'ADJUSTMENT', // an administrator's correction (platform adjustments ↔ wallet)
] as const;
export type TransferKind = (typeof TRANSFER_KINDS)[number];

/** Accounts that receive a transfer on every payment: spread over shards (≈1 sustained write/s per document). */
export const HOT_ACCOUNT_SHARDS = 16;

export const SYSTEM_ACCOUNTS = {
  platformRevenue: 'platform_revenue',
  payoutsInTransit: 'payouts_transit',
  adjustments: 'platform_adjustments',
  clearing: (provider: Provider) => `clearing_${provider}`,
} as const;

/** Shard count of each system account (1: one document). */
export const SYSTEM_ACCOUNT_SHARDS: Readonly<Record<string, number>> = {
  [SYSTEM_ACCOUNTS.platformRevenue]: HOT_ACCOUNT_SHARDS,
  [SYSTEM_ACCOUNTS.payoutsInTransit]: 1,
  [SYSTEM_ACCOUNTS.adjustments]: 1,
  ...Object.fromEntries(PROVIDERS.map((p) => [SYSTEM_ACCOUNTS.clearing(p), HOT_ACCOUNT_SHARDS])),
};

const USER_PREFIX: Record<UserAccountType, string> = { WALLET: 'wallet_', HELD: 'held_', EARNINGS: 'earnings_' };

export function userAccountId(type: UserAccountType, userId: string): string {
  return `${USER_PREFIX[type]}${userId}`;
}

export interface AccountRef {
  id: string;
  type: AccountType;
  ownerId: string | null;
  /** 1: the balance lives on the account document; more: on that many shard documents (balance = their sum). */
  shards: number;
}

export function userAccount(type: UserAccountType, userId: string): AccountRef {
  return { id: userAccountId(type, userId), type, ownerId: userId, shards: 1 };
}

export function systemAccount(id: string): AccountRef {
  const shards = SYSTEM_ACCOUNT_SHARDS[id];
  if (shards === undefined) throw new Error(`unknown system account ${id}`);
  return { id, type: 'SYSTEM', ownerId: null, shards };
}

/** Any account id back to its reference (ids are self-describing). */
export function accountOf(id: string): AccountRef {
  for (const type of ['WALLET', 'HELD', 'EARNINGS'] as const) {
    if (id.startsWith(USER_PREFIX[type]) && id.length > USER_PREFIX[type].length) return userAccount(type, id.slice(USER_PREFIX[type].length));
  }
  return systemAccount(id);
}

/** The lowest balance an account may reach through a leg that does not allow overdraft. */
export function floorOf(type: AccountType): number {
  return type === 'SYSTEM' ? -Infinity : 0;
}

/** One debit/credit pair. */
export interface Leg {
  kind: TransferKind;
  debit: AccountRef;
  credit: AccountRef;
  amount: Vnd;
  /**
   * Earnings may go below zero for what the owner owes (a cash ride's commission, a refund of a sale); user wallets
   * and held money never do.
   */
  allowOverdraft?: boolean;
  memo?: string | null;
}

/** `ledger_accounts/{accountId}` of a plain (unsharded) account: a user's wallet, held money or earnings. */
export const accountDocument = lazySchema(() =>
  describe(
    z.object({
      type: describe(z.enum(ACCOUNT_TYPES), "WALLET (spending), HELD (held for a ride or deposit), EARNINGS (a driver's or partner's), SYSTEM."),
      ownerId: describe(z.nullable(z.string()), 'The owner: the only one who may read the account (firestore.rules); null for system accounts.'),
      balance: describe(z.number(), 'VND.'),
      reserved: describe(z.number(), 'Earnings set aside for pending withdrawals: the available amount is balance − reserved.'),
      shards: describe(z.literal(1), 'Always 1 on these documents (sharded system accounts keep their balance elsewhere).'),
      currency: z.literal('VND'),
      createdAt: timestamp('when the account was opened (its first transfer).'),
      updatedAt: timestamp('its last transfer.'),
    }),
    'A ledger account and its balance (read live by its owner).',
  ),
);
export type AccountRecord = RecordOf<typeof accountDocument>;

/** The stored transfer (`ledger_transfers/{id}`). */
export const transferDocument = lazySchema(() =>
  describe(
    z.object({
      kind: describe(z.enum(TRANSFER_KINDS), 'What moved the money.'),
      debit: describe(z.string(), 'The account debited.'),
      credit: describe(z.string(), 'The account credited.'),
      debitShard: describe(z.nullable(z.number()), 'The shard written for a sharded account, else null.'),
      creditShard: z.nullable(z.number()),
      amount: describe(z.number(), 'VND, positive.'),
      debitBalanceAfter: describe(z.nullable(z.number()), "The plain accounts' balances after this transfer (statements), null for sharded ones."),
      creditBalanceAfter: z.nullable(z.number()),
      accounts: describe(z.array(z.string()), 'Both account ids (listing by account).'),
      owners: describe(z.array(z.string()), 'The users who own either account: who may read the transfer (firestore.rules).'),
      operationId: describe(z.string(), "The operation that posted it: every leg of one operation shares it (a payment's split, a refund)."),
      paymentId: describe(z.nullable(z.string()), 'The payment it belongs to, if any.'),
      ref: describe(z.nullable(z.object({ type: z.string(), id: z.string() })), 'What it is for (a ride, an order…).'),
      memo: describe(z.nullable(z.string()), 'Free text (a P2P note).'),
      by: describe(z.string(), 'Account id of the actor, `STAFF`, or `system:<source>`.'),
      at: timestamp('when it was posted: statements sort on it.'),
    }),
    'One immutable ledger transfer: it debits one account and credits another by the same amount.',
  ),
);
export type TransferRecord = Identified & RecordOf<typeof transferDocument>;

/** Transfer ids of an operation: its id plus the leg's position, so a retried operation finds what it posted. */
export function transferIdOf(operationId: string, index: number): string {
  return `${operationId}-${index}`;
}

/** A stable operation id from a caller's idempotency key (the key never appears in ids). */
export function operationIdFor(scope: string, callerId: string, key: string): string {
  return stableId({ scope, caller: callerId, key, length: 27 });
}

export function pickShard(shards: number, random: () => number = Math.random): number | null {
  return shards <= 1 ? null : Math.floor(random() * shards) % shards;
}

export class InsufficientFundsError extends MoneyError {
  constructor(
    readonly accountId: string,
    readonly available: number,
    readonly needed: number,
  ) {
    super(`account ${accountId} holds ${available}, needs ${needed}`);
  }
}

/**
 * Balances of plain accounts after the legs, in order; throws InsufficientFundsError at the first leg that would
 * take an account below its floor (the available amount of earnings is their balance minus reserved withdrawals).
 */
export function applyLegs(
  legs: readonly Leg[],
  opening: ReadonlyMap<string, { balance: number; reserved: number }>,
): { after: Map<string, number>; perLeg: Array<{ debit: number | null; credit: number | null }> } {
  const after = new Map<string, number>();
  const balanceOf = (id: string) => after.get(id) ?? opening.get(id)?.balance ?? 0;
  const perLeg: Array<{ debit: number | null; credit: number | null }> = [];
  for (const leg of legs) {
    if (!Number.isSafeInteger(leg.amount) || leg.amount <= 0) throw new MoneyError(`a transfer moves a positive amount, not ${leg.amount}`);
    if (leg.debit.id === leg.credit.id) throw new MoneyError(`a transfer cannot debit and credit ${leg.debit.id}`);
    let debitAfter: number | null = null;
    if (leg.debit.shards === 1) {
      const before = balanceOf(leg.debit.id);
      const reserved = opening.get(leg.debit.id)?.reserved ?? 0;
      debitAfter = before - leg.amount;
      const floor = leg.allowOverdraft && leg.debit.type === 'EARNINGS' ? -Infinity : floorOf(leg.debit.type) + reserved;
      if (debitAfter < floor) throw new InsufficientFundsError(leg.debit.id, Math.max(0, before - reserved), leg.amount);
      after.set(leg.debit.id, debitAfter);
    }
    let creditAfter: number | null = null;
    if (leg.credit.shards === 1) {
      creditAfter = balanceOf(leg.credit.id) + leg.amount;
      after.set(leg.credit.id, creditAfter);
    }
    perLeg.push({ debit: debitAfter, credit: creditAfter });
  }
  return { after, perLeg };
}

/** One account's standing in a ledger check: what its documents say against what its transfers add up to. */
export interface AccountCheck {
  accountId: string;
  stored: number;
  fromTransfers: number;
  ok: boolean;
}

/**
 * Compares stored balances with the sum of each account's transfers (credits − debits), and checks that the
 * stored balances of the whole ledger sum to zero. Pure: the caller reads a consistent snapshot.
 */
export function checkBalances(
  transfers: ReadonlyArray<Pick<TransferRecord, 'debit' | 'credit' | 'amount'>>,
  stored: ReadonlyMap<string, number>,
): { accounts: AccountCheck[]; total: number; ok: boolean } {
  const derived = new Map<string, number>();
  for (const t of transfers) {
    derived.set(t.debit, (derived.get(t.debit) ?? 0) - t.amount);
    derived.set(t.credit, (derived.get(t.credit) ?? 0) + t.amount);
  }
  const ids = [...new Set([...derived.keys(), ...stored.keys()])].sort();
  const accounts = ids.map((accountId) => {
    const s = stored.get(accountId) ?? 0;
    const d = derived.get(accountId) ?? 0;
    return { accountId, stored: s, fromTransfers: d, ok: s === d };
  });
  const total = [...stored.values()].reduce((sum, b) => sum + b, 0);
  return { accounts, total, ok: total === 0 && accounts.every((a) => a.ok) };
}

/** `yyyymmdd` of an instant in Vietnam (UTC+7, no daylight saving): daily limits reset at local midnight. */
export function vietnamDay(ms: number): string {
  return iso(ms + 7 * 3600_000)
    .slice(0, 10)
    .replace(/-/g, '');
}

export { vnd };
