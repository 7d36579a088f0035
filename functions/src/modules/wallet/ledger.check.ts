import { db, firestoreApi } from '../../platform/core/firebase/firebase';
import { checkBalances, LEDGER_ACCOUNTS, LEDGER_SHARDS, LEDGER_TRANSFERS, type AccountCheck } from './ledger.model';

const PAGE = 1_000;

export interface LedgerReport {
  ok: boolean;
  accounts: number;
  transfers: number;
  /** Sum of every stored balance: zero in a sound double-entry ledger. */
  total: number;
  mismatches: AccountCheck[];
}

/**
 * `npm run ledger:check`: every account's stored balance (sharded accounts: the sum of their shards) against the
 * sum of its transfers, and the whole ledger against zero. Everything is read in one read-only transaction, so
 * the figures are one consistent snapshot even while payments go on; pages of 1,000 report progress.
 */
export async function checkLedger(progress: (what: string, count: number) => void = () => undefined): Promise<LedgerReport> {
  return db().runTransaction(
    async (tx) => {
      const stored = new Map<string, number>();
      const transfers: Array<{ debit: string; credit: string; amount: number }> = [];
      const pages = async (query: FirebaseFirestore.Query, what: string, each: (doc: FirebaseFirestore.QueryDocumentSnapshot) => void) => {
        let count = 0;
        let last: FirebaseFirestore.QueryDocumentSnapshot | undefined;
        for (;;) {
          const snap = await tx.get((last ? query.startAfter(last) : query).limit(PAGE));
          snap.docs.forEach(each);
          count += snap.size;
          progress(what, count);
          if (snap.size < PAGE) return count;
          last = snap.docs[snap.size - 1];
        }
      };
      const { FieldPath } = firestoreApi();
      await pages(db().collection(LEDGER_ACCOUNTS).orderBy(FieldPath.documentId()), 'accounts', (doc) =>
        stored.set(doc.id, (doc.get('balance') as number | undefined) ?? 0),
      );
      await pages(db().collectionGroup(LEDGER_SHARDS).orderBy(FieldPath.documentId()), 'shards', (doc) => {
        const account = doc.ref.parent.parent!.id;
        stored.set(account, (stored.get(account) ?? 0) + ((doc.get('balance') as number | undefined) ?? 0));
      });
      const count = await pages(db().collection(LEDGER_TRANSFERS).orderBy(FieldPath.documentId()), 'transfers', (doc) =>
        transfers.push({ debit: doc.get('debit'), credit: doc.get('credit'), amount: doc.get('amount') }),
      );
      const result = checkBalances(transfers, stored);
      return { ok: result.ok, accounts: result.accounts.length, transfers: count, total: result.total, mismatches: result.accounts.filter((a) => !a.ok) };
    },
    { readOnly: true },
  );
}
