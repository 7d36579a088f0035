import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The merchants module's error codes (code: [status, meaning]); the sellers face (checkout, orders) answers the first two.
export const MERCHANTS_ERROR_CODES = defineErrorCodes({
  ITEM_UNAVAILABLE: [409, 'An item of the order is turned off by the store (`details.itemKey`).'],
  OUT_OF_STOCK: [409, 'An item has fewer units left than ordered (`details.itemKey`, `details.available`).'],
  MENU_SECTION_NOT_EMPTY: [409, 'A menu section to remove still holds items (`details.sections`): move or remove them first.'],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof MERCHANTS_ERROR_CODES> {}
}
