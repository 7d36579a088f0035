import type { Transaction } from 'firebase-admin/firestore';
import { inStockOf, type CatalogItemRecord, type ItemQuantity, type itemsRepo } from './catalog.items.repo';
import type { CatalogItemsSpec } from './catalog.spec';

// Counted stock of a catalog's items, taken and given back inside the caller's transaction (an order's creation,
// its cancellation): the reads come first (Firestore's rule), the writes are returned for the caller to run after
// its own reads. Two transactions taking the last unit conflict on the item's document: one retries, reads 0, and
// is refused by the caller.

/** The quantities wanted per key (lines of one item summed). */
function totalsOf(wants: readonly ItemQuantity[]): Map<string, number> {
  const totals = new Map<string, number>();
  for (const w of wants) totals.set(w.key, (totals.get(w.key) ?? 0) + w.quantity);
  return totals;
}

export function itemsStock(items: CatalogItemsSpec, repo: ReturnType<typeof itemsRepo>) {
  /** Counted stock: a number of units; undefined when not counted (stock null, or the items declare no stock). */
  const counted = (item: CatalogItemRecord): number | undefined => (items.stock && typeof item.stock === 'number' ? item.stock : undefined);
  const stockFields = (item: CatalogItemRecord, stock: number) => ({ stock, inStock: inStockOf(items, { ...item, stock }) });

  return {
    /**
     * The first counted item with fewer units than wanted (lines of one key summed), with the units it has; undefined
     * when every counted item has enough. Keys missing from `found` are skipped: the caller refuses them first.
     */
    shortOf(found: ReadonlyMap<string, CatalogItemRecord>, wants: readonly ItemQuantity[]): { itemKey: string; available: number } | undefined {
      for (const [key, quantity] of totalsOf(wants)) {
        const item = found.get(key);
        const stock = item ? counted(item) : undefined;
        if (stock !== undefined && stock < quantity) return { itemKey: key, available: stock };
      }
      return undefined;
    },

    /** Takes counted stock for `wants` (after `shortOf` found none) in the transaction that read `found`. */
    takeStock(tx: Transaction, parentId: string, found: ReadonlyMap<string, CatalogItemRecord>, wants: readonly ItemQuantity[]): void {
      for (const [key, quantity] of totalsOf(wants)) {
        const item = found.get(key);
        const stock = item ? counted(item) : undefined;
        if (!item || stock === undefined) continue;
        if (stock < quantity) throw new Error(`takeStock without shortOf: ${key} has ${stock}, ${quantity} wanted`);
        repo.update(tx, parentId, key, stockFields(item, stock - quantity));
      }
    },

    /**
     * In the caller's transaction: reads the items, then returns the write that puts counted stock back (a cancelled
     * order). Items since removed or no longer counted get nothing back.
     */
    async txGiveBack(tx: Transaction, parentId: string, lines: readonly ItemQuantity[]): Promise<() => void> {
      const found = await repo.getMany(
        parentId,
        lines.map((l) => l.key),
        tx,
      );
      return () => {
        for (const [key, quantity] of totalsOf(lines)) {
          const item = found.get(key);
          const stock = item ? counted(item) : undefined;
          if (item && stock !== undefined) repo.update(tx, parentId, key, stockFields(item, stock + quantity));
        }
      };
    },
  };
}
