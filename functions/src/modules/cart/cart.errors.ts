import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The cart module's error codes (code: [the status it comes with, what it means]). The sellers' own (ITEM_UNAVAILABLE,
// OUT_OF_STOCK, an unknown option as a 400 naming its field) come through from the merchants module unchanged.
export const CART_ERROR_CODES = defineErrorCodes({
  CART_SELLER_NOT_FOUND: [404, 'No such store, or it is not open for business on the platform (`details.seller`).'],
  CART_LIMIT: [409, 'You have as many carts as allowed (`details.maxCarts`): empty one first.'],
  CART_LINES_LIMIT: [409, 'The cart has as many lines as allowed (`details.maxLines`).'],
  CART_QUANTITY_LIMIT: [422, 'A line would exceed the most units allowed (`details.maxQuantity`).'],
  CART_EMPTY: [409, 'The cart at this store is empty.'],
  CART_SELLER_CLOSED: [
    409,
    'The store is not taking orders now (`details.openNow`, `details.paused`); at checkout also when it left the platform since the quote (`details.active` false).',
  ],
  CART_SELLER_GONE: [409, 'Reorder: the store of that order is no longer on the platform (archived or hidden): nothing was put in a cart.'],
  CART_OUT_OF_RANGE: [422, 'The address is outside the store’s delivery radius (`details.distanceM`, `details.deliveryRadiusM`).'],
  CART_BELOW_MINIMUM: [422, 'The items are below the store’s minimum order (`details.minOrderVnd`, `details.itemsVnd`).'],
  CART_PRESCRIPTION_REQUIRED: [422, 'A line needs a prescription image (`details.lineIds`): send prescriptionMediaId.'],
  CART_PRESCRIPTION_INVALID: [422, 'prescriptionMediaId is not one of your READY image uploads.'],
  CART_ADDRESS_NOT_FOUND: [404, 'No such saved address of yours (`addressId`).'],
  CART_CHANGED: [409, 'The cart or its prices changed while checking out: quote again and retry.'],
  CART_CHECKOUT_BUSY: [409, 'What an earlier attempt of this checkout took is being given back: retry in a few seconds (`Retry-After`).'],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof CART_ERROR_CODES> {}
}
