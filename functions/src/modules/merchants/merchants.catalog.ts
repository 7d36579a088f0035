import { ValidationError } from '../../platform/core/errors/app-error';
import { defineCatalog, defineCatalogItems } from '../../platform/kits/catalog/catalog.spec';
import { defineCatalogVertical, type CatalogVerticalRoutes } from '../../platform/kits/catalog/catalog.vertical';
import { distanceMeters } from '../../platform/kits/geo/geo';
import { partnerCatalogDeps } from '../partners';
import { MERCHANT_ITEMS, MERCHANTS } from './merchants.collections';
import { MENU_LIMITS, type MerchantDetails } from './merchants.model';
import type { MenuItemsService } from './merchants.menu';
import { merchantsRoutes } from './merchants.routes';
import { MerchantDetailsSchema, MerchantFiltersSchema, MerchantItemBodySchema, MerchantItemViewSchema } from './merchants.schemas';

// Merchants on the catalog kit: a partner's stores that take orders, each with its menu as the kit's child items
// (`/merchants/{id}/items/{itemKey}`), and the module's own operations (the menu, sections, availability, pause).

export { MERCHANTS, MERCHANT_ITEMS };

const menuItems = defineCatalogItems({
  collection: MERCHANT_ITEMS,
  segment: 'items',
  parentField: 'merchantId',
  keyField: 'itemKey',
  noun: 'menu item',
  nouns: 'items',
  parentNoun: 'merchant',
  parentNouns: 'merchants',
  schemaName: 'MerchantItem',
  pluralName: 'MerchantItems',
  putNote: 'price, options, availability and stock',
  stock: 'optional',
  availability: true,
  photos: true,
  managerFields: ['stock'],
  maxPerRecord: MENU_LIMITS.items,
  body: MerchantItemBodySchema,
  view: MerchantItemViewSchema,
  check(item, merchant) {
    const sections = (merchant.details as Partial<MerchantDetails>).menuSections ?? [];
    if (!sections.some((s) => s.key === item.categoryKey))
      throw new ValidationError('No such menu section', [
        {
          field: 'body.categoryKey',
          message:
            sections.length > 0 ? `must be one of ${sections.map((s) => s.key).join(', ')}` : 'the merchant has no menu sections yet (PUT …/menu/sections)',
        },
      ]);
  },
  nearbySearch: {
    path: '/merchants/items/search',
    summary: 'Merchants near me that have a dish or product ("bún bò", "bánh mì")',
    note: 'Only items that can be ordered now (available, not sold out).',
    perRecord: 5,
  },
});

export const merchantsCatalog = defineCatalog({
  tag: 'merchants',
  collection: MERCHANTS,
  basePath: '/merchants',
  noun: 'merchant',
  nouns: 'merchants',
  schemaName: 'Merchant',
  pluralName: 'Merchants',
  details: MerchantDetailsSchema,
  detailDefaults: { paused: false, menuSections: [] },
  ownOperationFields: ['paused', 'menuSections'],
  partnerRequired: true,
  maxRadiusM: 15_000,
  filters: MerchantFiltersSchema,
  keep: (m, f) =>
    (f.category === undefined || m.details.category === f.category) &&
    (f.minRating === undefined || m.ratingAvg >= f.minRating) &&
    (!f.deliversHere || distanceMeters(f, m) <= m.details.deliveryRadiusM),
  items: menuItems,
});

export const merchants = defineCatalogVertical(merchantsCatalog, {
  deps: () => partnerCatalogDeps,
  routes: (service): CatalogVerticalRoutes => merchantsRoutes(service, merchantItems),
});
export const merchantsService = merchants.service;
export function merchantItems(): MenuItemsService {
  return merchants.items();
}
