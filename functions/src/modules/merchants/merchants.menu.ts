import type { Caller } from '../../platform/kits/catalog/catalog.access';
import type { CatalogItemsService, StoredItem } from '../../platform/kits/catalog/catalog.items';
import type { CatalogService } from '../../platform/kits/catalog/catalog.service';
import { ConflictError } from '../../platform/core/errors/app-error';
import type { MenuSection } from './merchants.model';
import { merchantsRepo } from './merchants.repo';
import type { MerchantDetailsSchema, MerchantFiltersSchema, MerchantItemBodySchema, MerchantItemViewSchema } from './merchants.schemas';

// The merchants' own operations beside the catalog kit's: the menu screen, its sections, bulk availability, pause.

export type MerchantsService = CatalogService<typeof MerchantDetailsSchema, typeof MerchantFiltersSchema>;
export type MenuItemsService = CatalogItemsService<typeof MerchantItemBodySchema, typeof MerchantItemViewSchema, 'merchant', 'items'>;
type MerchantView = Awaited<ReturnType<MerchantsService['get']>>;
/** A menu item as stored (`merchant_items/{merchantId}_{itemKey}`). */
export type MenuItemRecord = StoredItem<typeof MerchantItemBodySchema>;
type MenuState = Pick<MerchantView, 'id' | 'status' | 'openNow'> & { paused?: boolean; menuSections?: MenuSection[] };

/** Whether a store takes orders now: active, not paused, open by its hours (unknown hours: closed). */
export const acceptingOrders = (m: Pick<MenuState, 'status' | 'paused' | 'openNow'>): boolean => m.status === 'ACTIVE' && !m.paused && m.openNow === true;

const bySectionOrder = (a: MenuItemRecord, b: MenuItemRecord) =>
  (a.position ?? Number.MAX_SAFE_INTEGER) - (b.position ?? Number.MAX_SAFE_INTEGER) || a.nameFolded.localeCompare(b.nameFolded);

/** The menu screen: the sections in order, each with its items (position, then name); empty sections left out. */
export function menuOf(merchant: MenuState, items: readonly MenuItemRecord[]) {
  const sections = merchant.menuSections ?? [];
  const known = new Set(sections.map((s) => s.key));
  const groups = [...sections, { key: '', name: 'Khác' }].map((section) => ({
    key: section.key,
    name: section.name,
    items: items
      .filter((i) => (section.key === '' ? !known.has(i.categoryKey) : i.categoryKey === section.key))
      .sort(bySectionOrder)
      .map((i) => ({
        itemKey: String(i.itemKey),
        name: i.name,
        ...(i.description !== undefined ? { description: i.description } : {}),
        priceVnd: i.priceVnd,
        optionGroups: i.optionGroups,
        photos: i.photos ?? [],
        available: i.available,
        soldOut: i.stock === 0,
        requiresPrescription: i.requiresPrescription,
      })),
  }));
  return {
    merchantId: merchant.id,
    acceptingOrders: acceptingOrders(merchant),
    openNow: merchant.openNow,
    paused: Boolean(merchant.paused),
    sections: groups.filter((g) => g.items.length > 0),
  };
}

export function createMenuService(records: MerchantsService, items: () => MenuItemsService) {
  return {
    /** The whole menu of a visible merchant (404 otherwise), as the app's menu screen shows it. */
    async menu(id: string, caller: Caller) {
      const merchant = await records.get(id, caller);
      return menuOf(merchant, await items().all(id));
    },

    /** Replaces the sections (names and order); removing one that still holds items is 409 MENU_SECTION_NOT_EMPTY. */
    async setSections(id: string, caller: Caller, sections: MenuSection[]) {
      const after = await records.changeDetails(id, caller, async (merchant, tx) => {
        const removed = (merchant.details.menuSections ?? []).map((s) => s.key).filter((key) => !sections.some((s) => s.key === key));
        const used = removed.length > 0 ? await merchantsRepo.sectionsInUse(tx, id, removed) : [];
        if (used.length > 0)
          throw new ConflictError('These menu sections still hold items: move or remove them first', { sections: used }).withCode('MENU_SECTION_NOT_EMPTY');
        return { menuSections: sections };
      });
      return { sections: after.menuSections ?? [] };
    },

    /** Turns items on or off at once (≤ 200), all or nothing. */
    async setAvailability(id: string, caller: Caller, changes: ReadonlyArray<{ itemKey: string; available: boolean }>) {
      const items_ = await items().setAvailability(
        id,
        caller,
        changes.map((c) => ({ key: c.itemKey, available: c.available })),
      );
      return { items: items_ };
    },

    /** Pauses ("busy, not taking orders") or resumes; repeating the same move changes nothing. */
    setPaused: (id: string, caller: Caller, paused: boolean) => records.changeDetails(id, caller, () => ({ paused })),
  };
}
