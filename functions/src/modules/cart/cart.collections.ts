import { documentTaskQueue } from '../../platform/kits/tasks/tasks';

// Names and the task queue, apart from the model: the module definition (loaded at every cold start) needs only these.
/** `carts/{userId}_{sellerKind}_{sellerId}`: a consumer's cart at one seller (lines inside; API only; TTL `expireAt`). */
export const CARTS = 'carts';
/**
 * `cart_checkouts/{orderId}`: what a checkout took before its order existed (a voucher use, wallet holds, gateway
 * payments) and whether the order took them; the check releases what no order took (API only; TTL `expireAt`).
 */
export const CART_CHECKOUTS = 'cart_checkouts';
/** Releases a checkout's voucher use and payments that no order took, once the checkout can no longer be running. */
export const CART_CHECKOUT_CHECK_QUEUE = documentTaskQueue('cartCheckoutCheck', 'orderId');
