import { documentTaskQueue } from '../../platform/kits/tasks/tasks';

// Collection names and the task queue, apart from the model: the module definition (loaded at every cold start)
// needs only these. payments.model.ts re-exports them.

export const PAYMENTS = 'payments';
/** `payment_tips/{id}`: how many tips a payer gave for one ride or order (server only). */
export const PAYMENT_TIPS = 'payment_tips';

/** Expires a gateway payment still PENDING at its deadline. */
export const PAYMENT_EXPIRY_QUEUE = documentTaskQueue('paymentExpiry', 'paymentId');

export const STAFF_REFUNDS = 'payment_staff_refunds';
