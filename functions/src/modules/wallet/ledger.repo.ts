import type { Transaction } from 'firebase-admin/firestore';
import { db, firestoreApi } from '../../platform/core/firebase/firebase';
import { paginate, type Page, type PageRequest } from '../../platform/kits/firestore/paginate';
import { storedFields } from '../../platform/kits/firestore/documents';
import { readRecord, typedCollection } from '../../platform/kits/firestore/records';
import {
  accountDocument,
  accountOf,
  applyLegs,
  InsufficientFundsError,
  LEDGER_ACCOUNTS,
  LEDGER_SHARDS,
  LEDGER_TRANSFERS,
  pickShard,
  SYSTEM_ACCOUNT_SHARDS,
  transferDocument,
  transferIdOf,
  WALLET_LIMITS,
  WALLET_TRANSFERS,
  type AccountRecord,
  type Leg,
  type TransferKind,
  type TransferRecord,
} from './ledger.model';
import type { P2pRecord } from './wallet.model';
import { timestampOf } from '../../platform/kits/time/time';

export type { AccountRecord };

export interface PostContext {
  /** Shared by every leg of the operation; transfer ids derive from it, so a retried operation cannot post twice. */
  operationId: string;
  by: string;
  now: number;
  paymentId?: string | null;
  ref?: { type: string; id: string } | null;
}

export interface Balance {
  accountId: string;
  balance: number;
  reserved: number;
}

const accountRef = (id: string) => db().collection(LEDGER_ACCOUNTS).doc(id);
const shardRef = (id: string, shard: number) => accountRef(id).collection(LEDGER_SHARDS).doc(String(shard));
const transfers = () => typedCollection<TransferRecord>(LEDGER_TRANSFERS, transferDocument);

export const ledgerRepo = {
  /**
   * Posts the legs of one operation in the caller's transaction: reads the plain accounts they touch (the caller's
   * own reads must come first), checks floors, then writes balances, shard increments and one transfer per leg.
   * `reservedDelta` moves earnings in or out of reserve (withdrawals) in the same write; a positive change must
   * leave balance − reserved ≥ 0. Throws InsufficientFundsError and writes nothing when a floor would break.
   */
  async post(tx: Transaction, legs: readonly Leg[], ctx: PostContext, reservedDelta: Readonly<Record<string, number>> = {}): Promise<TransferRecord[]> {
    return (await ledgerRepo.prepare(tx, legs, ctx, reservedDelta))();
  },

  /**
   * `post` in two halves, for a caller that reads more beside it: reads the plain accounts and checks the floors
   * (InsufficientFundsError, nothing written), then the returned function writes (call it after every read of the
   * transaction).
   */
  async prepare(
    tx: Transaction,
    legs: readonly Leg[],
    ctx: PostContext,
    reservedDelta: Readonly<Record<string, number>> = {},
  ): Promise<() => TransferRecord[]> {
    const plainIds = [
      ...new Set([
        ...legs
          .flatMap((l) => [l.debit, l.credit])
          .filter((a) => a.shards === 1)
          .map((a) => a.id),
        ...Object.keys(reservedDelta),
      ]),
    ];
    const snaps = plainIds.length > 0 ? await tx.getAll(...plainIds.map(accountRef)) : [];
    const opening = new Map<string, { balance: number; reserved: number }>();
    snaps.forEach((snap, i) => {
      const reserved = (snap.get('reserved') ?? 0) + (reservedDelta[plainIds[i]] ?? 0);
      opening.set(plainIds[i], { balance: snap.exists ? (snap.get('balance') as number) : 0, reserved });
    });
    const { after, perLeg } = applyLegs(legs, opening);
    for (const [id, delta] of Object.entries(reservedDelta)) {
      const state = opening.get(id)!;
      const balance = after.get(id) ?? state.balance;
      if (delta > 0 && balance - state.reserved < 0) throw new InsufficientFundsError(id, Math.max(0, balance - state.reserved + delta), delta);
      if (state.reserved < 0) throw new Error(`reserve of ${id} would drop below zero`);
    }
    return () => ledgerRepo.write(tx, legs, ctx, { snaps, plainIds, opening, after, perLeg });
  },

  /** `prepare`'s writing half: balances, shard increments and one transfer per leg. */
  write(
    tx: Transaction,
    legs: readonly Leg[],
    ctx: PostContext,
    read: {
      snaps: FirebaseFirestore.DocumentSnapshot[];
      plainIds: string[];
      opening: Map<string, { balance: number; reserved: number }>;
      after: ReturnType<typeof applyLegs>['after'];
      perLeg: ReturnType<typeof applyLegs>['perLeg'];
    },
  ): TransferRecord[] {
    const { snaps, plainIds, opening, after, perLeg } = read;
    snaps.forEach((snap, i) => {
      const id = plainIds[i];
      const balance = after.get(id) ?? opening.get(id)!.balance;
      const reserved = opening.get(id)!.reserved;
      if (snap.exists) tx.update(accountRef(id), storedFields(accountDocument, { balance, reserved, updatedAt: ctx.now }));
      else {
        const account = accountOf(id);
        const record: AccountRecord = {
          type: account.type,
          ownerId: account.ownerId,
          balance,
          reserved,
          shards: 1,
          currency: 'VND',
          createdAt: ctx.now,
          updatedAt: ctx.now,
        };
        tx.set(accountRef(id), storedFields(accountDocument, record));
      }
    });
    // Sharded accounts take blind increments (no read, no lock on a hot document); one write per shard touched.
    const shardDeltas = new Map<string, { id: string; shard: number; delta: number }>();
    const records = legs.map((leg, i): TransferRecord => {
      const debitShard = pickShard(leg.debit.shards);
      const creditShard = pickShard(leg.credit.shards);
      for (const [account, shard, delta] of [
        [leg.debit.id, debitShard, -leg.amount],
        [leg.credit.id, creditShard, leg.amount],
      ] as const) {
        if (shard === null) continue;
        const key = `${account}/${shard}`;
        shardDeltas.set(key, { id: account, shard, delta: (shardDeltas.get(key)?.delta ?? 0) + delta });
      }
      return {
        id: transferIdOf(ctx.operationId, i),
        kind: leg.kind,
        debit: leg.debit.id,
        credit: leg.credit.id,
        debitShard,
        creditShard,
        amount: leg.amount,
        debitBalanceAfter: perLeg[i].debit,
        creditBalanceAfter: perLeg[i].credit,
        accounts: [leg.debit.id, leg.credit.id],
        owners: [...new Set([leg.debit.ownerId, leg.credit.ownerId].filter((o): o is string => o !== null))],
        operationId: ctx.operationId,
        paymentId: ctx.paymentId ?? null,
        ref: ctx.ref ?? null,
        memo: leg.memo ?? null,
        by: ctx.by,
        at: ctx.now,
      };
    });
    if (shardDeltas.size > 0) {
      const { FieldValue } = firestoreApi();
      for (const { id, shard, delta } of shardDeltas.values())
        tx.set(shardRef(id, shard), { balance: FieldValue.increment(delta), updatedAt: ctx.now }, { merge: true });
    }
    for (const record of records) tx.create(transfers().doc(record.id), record);
    return records;
  },

  /** The transfers an operation posted (empty when it has not run): the replay of a retried operation. */
  async posted(operationId: string, tx?: Transaction): Promise<TransferRecord[]> {
    const first = await readRecord(transfers().doc(transferIdOf(operationId, 0)), tx);
    if (!first) return [];
    const found = [first];
    for (let i = 1; ; i++) {
      const next = await readRecord(transfers().doc(transferIdOf(operationId, i)), tx);
      if (!next) return found;
      found.push(next);
    }
  },

  async transfer(id: string): Promise<TransferRecord | undefined> {
    return readRecord(transfers().doc(id));
  },

  /** Balances of accounts (sharded ones summed over their shards); a missing account holds 0. */
  async balances(ids: readonly string[], tx?: Transaction): Promise<Balance[]> {
    const plain = ids.filter((id) => (SYSTEM_ACCOUNT_SHARDS[id] ?? 1) === 1);
    const snaps = plain.length === 0 ? [] : tx ? await tx.getAll(...plain.map(accountRef)) : await db().getAll(...plain.map(accountRef));
    const byId = new Map(
      snaps.map((s, i) => [plain[i], { balance: (s.get('balance') as number | undefined) ?? 0, reserved: (s.get('reserved') as number | undefined) ?? 0 }]),
    );
    return Promise.all(
      ids.map(async (id) => {
        if (byId.has(id)) return { accountId: id, ...byId.get(id)! };
        if (!tx) {
          // Outside a transaction the shards are summed by an aggregation: one read per 1,000 shards, not one each.
          const summed = await accountRef(id)
            .collection(LEDGER_SHARDS)
            .aggregate({ balance: firestoreApi().AggregateField.sum('balance') })
            .get();
          return { accountId: id, balance: summed.data().balance, reserved: 0 };
        }
        const shards = await tx.get(accountRef(id).collection(LEDGER_SHARDS));
        return { accountId: id, balance: shards.docs.reduce((sum, d) => sum + ((d.get('balance') as number | undefined) ?? 0), 0), reserved: 0 };
      }),
    );
  },

  /** Transfers of one account, newest first, optionally of one kind. */
  transfersOf(accountId: string, filter: { kind?: TransferKind }, page: PageRequest): Promise<Page<TransferRecord>> {
    let query: FirebaseFirestore.Query<TransferRecord> = transfers().where('accounts', 'array-contains', accountId);
    if (filter.kind) query = query.where('kind', '==', filter.kind);
    return paginate(query, [{ field: 'at', direction: 'desc' }], page, (doc) => doc.data());
  },

  /** What a user sent by P2P transfer on a Vietnam day (the daily limit), in the caller's transaction. */
  async sentOn(tx: Transaction, userId: string, day: string): Promise<number> {
    const snap = await tx.get(db().collection(WALLET_LIMITS).doc(`${userId}_${day}`));
    return (snap.get('sent') as number | undefined) ?? 0;
  },

  /** The P2P record beside its ledger transfer (the recipient's notice triggers on it, not on every ledger row). */
  createP2p(tx: Transaction, record: P2pRecord): void {
    const { id, ...data } = record;
    tx.create(db().collection(WALLET_TRANSFERS).doc(id), data);
  },

  setSentOn(tx: Transaction, userId: string, day: string, sent: number, now: number): void {
    // Kept two days: a day's total is only read on that day.
    tx.set(db().collection(WALLET_LIMITS).doc(`${userId}_${day}`), { userId, day, sent, updatedAt: now, expireAt: timestampOf(now + 2 * 86_400_000) });
  },

  async sentToday(userId: string, day: string): Promise<number> {
    return ((await db().collection(WALLET_LIMITS).doc(`${userId}_${day}`).get()).get('sent') as number | undefined) ?? 0;
  },

  /**
   * A consistent snapshot of stored balances (plain accounts and every shard) and of the transfers, optionally of
   * some accounts only, in one read-only transaction.
   */
  async snapshot(accountIds?: readonly string[]): Promise<{ stored: Map<string, number>; transfers: TransferRecord[] }> {
    return db().runTransaction(
      async (tx) => {
        const stored = new Map<string, number>();
        let list: TransferRecord[];
        if (accountIds) {
          for (const b of await ledgerRepo.balances(accountIds, tx)) stored.set(b.accountId, b.balance);
          const seen = new Map<string, TransferRecord>();
          for (const id of accountIds) for (const doc of (await tx.get(transfers().where('accounts', 'array-contains', id))).docs) seen.set(doc.id, doc.data());
          list = [...seen.values()];
        } else {
          for (const doc of (await tx.get(db().collection(LEDGER_ACCOUNTS))).docs) stored.set(doc.id, (doc.get('balance') as number | undefined) ?? 0);
          for (const doc of (await tx.get(db().collectionGroup(LEDGER_SHARDS))).docs) {
            const account = doc.ref.parent.parent!.id;
            stored.set(account, (stored.get(account) ?? 0) + ((doc.get('balance') as number | undefined) ?? 0));
          }
          list = (await tx.get(transfers())).docs.map((d) => d.data());
        }
        // Only the listed accounts' transfers count for them: a transfer's other side belongs to another account.
        return {
          stored,
          transfers: accountIds
            ? list.map((t) => ({
                ...t,
                debit: accountIds.includes(t.debit) ? t.debit : '(other)',
                credit: accountIds.includes(t.credit) ? t.credit : '(other)',
              }))
            : list,
        };
      },
      { readOnly: true },
    );
  },
};
