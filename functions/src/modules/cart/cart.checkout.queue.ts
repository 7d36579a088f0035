import { AppError } from '../../platform/core/errors/app-error';

// Placing transactions of one store, one at a time in this instance (platform/kits/firestore/one-at-a-time): a crowd
// at a store reads and writes the same counted items; run side by side, its transactions abort one another (the
// emulator refused 385 of 690 commits of a crowd of 50) and the SDK's growing pauses left the losers waiting past the
// request deadline.

/** The queue of a store's placing transactions. */
export const sellerQueueKey = (seller: { kind: string; id: string }) => `${seller.kind}/${seller.id}`;

/** The answer when a store's queue is too long to wait for here: nothing was taken, the same key may retry. */
export const storeBusy = () =>
  new AppError(409, 'The store is taking many orders at this moment: retry in a few seconds', undefined, { 'Retry-After': '2' }).withCode('CART_CHECKOUT_BUSY');
