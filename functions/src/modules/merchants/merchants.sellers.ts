import type { Transaction } from 'firebase-admin/firestore';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/core/errors/app-error';
import { isDocumentId } from '../../platform/core/http/ids';
import type { CatalogItemRecord, ItemQuantity } from '../../platform/kits/catalog/catalog.items';
import type { CatalogRecord } from '../../platform/kits/catalog/catalog.model';
import { ItemKeySchema } from '../../platform/kits/catalog/catalog.items.routes';
import { DEFAULT_TIME_ZONE, isOpenAt } from '../../platform/kits/catalog/hours';
import { partnerRoleOf } from '../partners';
import { pharmacyProductsService, pharmacyStoresService } from '../pharmacy';
import { merchantItems, merchantsService } from './merchants.catalog';
import { priceLines, type PricingItem } from './merchants.pricing';
import type { LineRequest, PricedLine, Seller, SellerKind, SellerRef } from './merchants.sellers.types';

// The sellers face (index.ts): the stores checkout and orders sell from, this module's merchants and the map tab's
// pharmacy stores, read through the catalog kit. Prices come from the stored items only; counted stock is taken
// and given back in the caller's transaction.

/** What a pharmacy store sells on: it keeps no delivery settings of its own. */
export const PHARMACY_SELLER = { deliveryRadiusM: 5_000, prepTimeMin: 10, minOrderVnd: 0 } as const;

/** What a seller's items give checkout: their prices (pricing) and their counted stock, read together. */
interface SellerItems {
  /** Reads the items of the lines (in the transaction when given). */
  read(parentId: string, keys: readonly string[], tx?: Transaction): Promise<ReadItems>;
  txGiveBack(tx: Transaction, parentId: string, lines: readonly ItemQuantity[]): Promise<() => void>;
}
interface ReadItems {
  pricing(key: string): PricingItem | undefined;
  shortOf(wants: readonly ItemQuantity[]): { itemKey: string; available: number } | undefined;
  take(tx: Transaction, parentId: string, wants: readonly ItemQuantity[]): void;
}
type Terms = Pick<Seller, 'category' | 'deliveryRadiusM' | 'prepTimeMin' | 'minOrderVnd' | 'paused'>;

interface SellerSource {
  record(id: string, tx?: Transaction): Promise<{ record: CatalogRecord<unknown>; terms: Terms } | undefined>;
  items(): SellerItems;
}

/** A catalog's items as a seller's: read once, priced by `pricing`, stock through the kit. */
function sellerItems<T extends CatalogItemRecord>(
  service: {
    read(parentId: string, keys: readonly string[], tx?: Transaction): Promise<Map<string, T>>;
    shortOf(found: ReadonlyMap<string, CatalogItemRecord>, wants: readonly ItemQuantity[]): { itemKey: string; available: number } | undefined;
    takeStock(tx: Transaction, parentId: string, found: ReadonlyMap<string, CatalogItemRecord>, wants: readonly ItemQuantity[]): void;
    txGiveBack(tx: Transaction, parentId: string, lines: readonly ItemQuantity[]): Promise<() => void>;
  },
  pricing: (item: T) => PricingItem,
): SellerItems {
  return {
    async read(parentId, keys, tx) {
      const found = await service.read(parentId, keys, tx);
      return {
        pricing: (key) => (found.has(key) ? pricing(found.get(key)!) : undefined),
        shortOf: (wants) => service.shortOf(found, wants),
        take: (t, id, wants) => service.takeStock(t, id, found, wants),
      };
    },
    txGiveBack: (tx, parentId, lines) => service.txGiveBack(tx, parentId, lines),
  };
}

const SOURCES: Record<SellerKind, SellerSource> = {
  MERCHANT: {
    async record(id, tx) {
      const record = await merchantsService().getRecord(id, tx);
      if (!record) return undefined;
      const d = record.details;
      return {
        record,
        terms: { category: d.category, deliveryRadiusM: d.deliveryRadiusM, prepTimeMin: d.prepTimeMin, minOrderVnd: d.minOrderVnd, paused: Boolean(d.paused) },
      };
    },
    items: () =>
      sellerItems(merchantItems(), (item) => ({
        name: item.name,
        priceVnd: item.priceVnd,
        optionGroups: item.optionGroups,
        available: item.available,
        requiresPrescription: item.requiresPrescription,
      })),
  },
  PHARMACY: {
    async record(id, tx) {
      const record = await pharmacyStoresService().getRecord(id, tx);
      return record && { record, terms: { category: 'PHARMACY', ...PHARMACY_SELLER, paused: false } };
    },
    items: () =>
      sellerItems(pharmacyProductsService(), (product) => ({
        name: product.name,
        priceVnd: product.priceVnd,
        optionGroups: [],
        available: true,
        requiresPrescription: product.requiresPrescription,
      })),
  },
};

const sourceOf = (ref: SellerRef): SellerSource | undefined =>
  Object.hasOwn(SOURCES, ref?.kind) && isDocumentId(String(ref.id)) ? SOURCES[ref.kind] : undefined;
const noSeller = () => new NotFoundError('No such seller');
/** Keys that can name an item (anything else is "no such item" in pricing, never a Firestore path). */
const itemKeys = (lines: readonly LineRequest[]) => lines.map((l) => l?.itemKey).filter((k): k is string => ItemKeySchema.safeParse(k).success);
const wantsOf = (lines: readonly LineRequest[]): ItemQuantity[] => lines.map((l) => ({ key: l.itemKey, quantity: l.quantity }));

export function sellerOf(kind: SellerKind, { record, terms }: { record: CatalogRecord<unknown>; terms: Terms }, at: number): Seller {
  const openNow = isOpenAt(record.hours, at) === true;
  return {
    ref: { kind, id: record.id },
    partnerId: record.partnerId!,
    name: record.name,
    lat: record.lat,
    lng: record.lng,
    address: record.address ?? '',
    timeZone: record.hours?.timeZone ?? DEFAULT_TIME_ZONE,
    ...terms,
    openNow,
    accepting: record.status === 'ACTIVE' && !terms.paused && openNow,
  };
}

/** Reads and prices the lines, then checks counted stock (409 OUT_OF_STOCK). */
async function priced(source: SellerSource, ref: SellerRef, lines: readonly LineRequest[], tx?: Transaction) {
  if (!Array.isArray(lines)) throw new ValidationError('Validation failed: lines: must be a list', [{ field: 'lines', message: 'must be a list' }]);
  const found = await source.items().read(ref.id, itemKeys(lines), tx);
  const pricedLines = priceLines(lines, found.pricing);
  const short = found.shortOf(wantsOf(lines));
  if (short) throw new ConflictError(`Only ${short.available} left of ${found.pricing(short.itemKey)!.name}`, short).withCode('OUT_OF_STOCK');
  return { found, lines: pricedLines };
}

export const sellersImpl = {
  async get(ref: SellerRef, tx?: Transaction): Promise<Seller | undefined> {
    const source = sourceOf(ref);
    const found = source ? await source.record(ref.id, tx) : undefined;
    if (!found || found.record.status !== 'ACTIVE' || !found.record.partnerId) return undefined;
    return sellerOf(ref.kind, found, Date.now());
  },

  async staffRole(ref: SellerRef, userId: string, tx?: Transaction): Promise<'OWNER' | 'STAFF' | undefined> {
    const partnerId = (await sourceOf(ref)?.record(ref.id, tx))?.record.partnerId;
    return partnerId ? partnerRoleOf(partnerId, userId, tx) : undefined;
  },

  async quote(ref: SellerRef, lines: LineRequest[]): Promise<PricedLine[]> {
    const source = sourceOf(ref);
    if (!source) throw noSeller();
    return (await priced(source, ref, lines)).lines;
  },

  async txTake(tx: Transaction, ref: SellerRef, lines: LineRequest[]): Promise<{ lines: PricedLine[]; take(): void }> {
    const source = sourceOf(ref);
    if (!source) throw noSeller();
    const { found, lines: pricedLines } = await priced(source, ref, lines, tx);
    return { lines: pricedLines, take: () => found.take(tx, ref.id, wantsOf(lines)) };
  },

  async txGiveBack(tx: Transaction, ref: SellerRef, lines: Array<{ itemKey: string; quantity: number }>): Promise<() => void> {
    const source = sourceOf(ref);
    if (!source) throw noSeller();
    const bad = lines.findIndex((l) => !ItemKeySchema.safeParse(l?.itemKey).success || !Number.isSafeInteger(l.quantity) || l.quantity < 1);
    if (bad >= 0)
      throw new ValidationError(`Validation failed: lines.${bad}: an item key and a positive quantity`, [
        { field: `lines.${bad}`, message: 'needs an item key and a positive quantity' },
      ]);
    return source.items().txGiveBack(tx, ref.id, wantsOf(lines));
  },
};
