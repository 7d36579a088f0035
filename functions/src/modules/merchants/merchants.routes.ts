import { z } from 'zod';
import { IdParamsSchema } from '../../platform/core/http/ids';
import { defineRoute } from '../../platform/core/http/route';
import type { ErrorCode } from '../../platform/core/errors/codes';
import { catalogItemSchemas } from '../../platform/kits/catalog/catalog.items.routes';
import { CATALOG_ADMIN_PATH, catalogSchemas } from '../../platform/kits/catalog/catalog.routes';
import type { CatalogVerticalRoutes } from '../../platform/kits/catalog/catalog.vertical';
import { createMenuService, type MenuItemsService, type MerchantsService } from './merchants.menu';
import { MENU_LIMITS, MERCHANT_CATEGORIES, MERCHANT_CATEGORY_LABELS } from './merchants.model';
import { AvailabilityBodySchema, MenuSectionsBodySchema, MenuSectionsSchema, MerchantCategoriesSchema, MerchantMenuSchema } from './merchants.schemas';

// The merchants' own operations beside the kit's (merchants.catalog.ts): categories, the menu, its sections, bulk
// availability, pause and resume.

const MANAGERS = ['PARTNER_OWNER', 'PARTNER_STAFF', 'ADMIN'] as const;
const MANAGER_CODES: ErrorCode[] = ['CATALOG_NOT_MANAGER', 'CATALOG_TRANSITION', 'PERMISSION_REQUIRED'];
const BY_MANAGERS = `By the merchant’s managers (its partner’s owner and staff); an archived merchant is read-only (409 CATALOG_TRANSITION). ${CATALOG_ADMIN_PATH}`;

export function merchantsRoutes(service: MerchantsService, items: () => MenuItemsService): CatalogVerticalRoutes {
  const menus = createMenuService(service, items);
  const merchantView = catalogSchemas(service.spec).view;
  const itemView = catalogItemSchemas(service.spec, service.spec.items!).view;
  const pauseRoute = (paused: boolean) =>
    defineRoute({
      method: 'post',
      path: `/merchants/:id/${paused ? 'pause' : 'resume'}`,
      operationId: paused ? 'pauseMerchant' : 'resumeMerchant',
      tag: 'merchants',
      summary: paused ? 'Pause a merchant: busy, not taking orders' : 'Resume taking orders',
      description: `${
        paused
          ? 'The store stays listed with paused true and acceptingOrders false on its menu; checkout refuses it until POST …/resume.'
          : 'Ends a pause; the store takes orders again while open.'
      } Repeating it changes nothing. ${BY_MANAGERS}`,
      auth: [...MANAGERS],
      permission: 'catalog.manage',
      errors: [404],
      codes: MANAGER_CODES,
      request: { params: IdParamsSchema },
      response: { description: 'The merchant after the change.', schema: merchantView },
      handler: ({ params, auth }) => menus.setPaused(params.id, auth!, paused),
    });

  return {
    before: [
      defineRoute({
        method: 'get',
        path: '/merchants/categories',
        operationId: 'listMerchantCategories',
        tag: 'merchants',
        summary: 'Merchant categories (for the app’s category chips)',
        auth: [],
        response: { description: 'Each category with its English and Vietnamese label.', schema: MerchantCategoriesSchema },
        handler: () => ({ categories: MERCHANT_CATEGORIES.map((id) => ({ id, ...MERCHANT_CATEGORY_LABELS[id] })) }),
      }),
    ],
    after: [
      defineRoute({
        method: 'get',
        path: '/merchants/:id/menu',
        operationId: 'getMerchantMenu',
        tag: 'merchants',
        summary: 'The menu of a merchant, by section',
        description: `The menu screen: the sections in the merchant’s order, each with its items (by position, then name); empty sections are left out. Items turned off or sold out are listed with available false or soldOut true; counted stock is not shown. acceptingOrders says whether an order can be placed now. Hidden and archived merchants are 404 except to their managers and administrators. At most ${MENU_LIMITS.items} items.`,
        auth: [],
        errors: [404],
        request: { params: IdParamsSchema },
        response: { description: 'The menu.', schema: MerchantMenuSchema },
        handler: ({ params, auth }) => menus.menu(params.id, auth!),
      }),
      defineRoute({
        method: 'put',
        path: '/merchants/:id/menu/sections',
        operationId: 'setMerchantMenuSections',
        tag: 'merchants',
        summary: 'Set the menu sections (names and order)',
        description: `Replaces the list: rename and reorder freely; a key is the section’s identity (items name it in categoryKey). Removing a section that still holds items is 409 MENU_SECTION_NOT_EMPTY with the sections in details. At most ${MENU_LIMITS.sections}. ${BY_MANAGERS}`,
        auth: [...MANAGERS],
        permission: 'catalog.manage',
        errors: [404],
        codes: [...MANAGER_CODES, 'MENU_SECTION_NOT_EMPTY'],
        request: { params: IdParamsSchema, body: MenuSectionsBodySchema },
        response: { description: 'The sections as stored.', schema: MenuSectionsSchema },
        handler: ({ params, body, auth }) => menus.setSections(params.id, auth!, body.sections),
      }),
      defineRoute({
        method: 'post',
        path: '/merchants/:id/items/availability',
        operationId: 'setMerchantItemsAvailability',
        tag: 'merchants',
        summary: 'Turn menu items on or off, many at once',
        description: `Up to ${MENU_LIMITS.availabilityBatch} item keys with available true or false, in one transaction: an unknown key is 400 naming body.items.{i}.itemKey and nothing changes. Stock is left as it is. ${BY_MANAGERS}`,
        auth: [...MANAGERS],
        permission: 'catalog.manage',
        errors: [404],
        codes: MANAGER_CODES,
        request: { params: IdParamsSchema, body: AvailabilityBodySchema },
        response: { description: 'The items after the change, in the order sent.', schema: z.object({ items: z.array(itemView) }) },
        handler: ({ params, body, auth }) => menus.setAvailability(params.id, auth!, body.items),
      }),
      pauseRoute(true),
      pauseRoute(false),
    ],
  };
}
