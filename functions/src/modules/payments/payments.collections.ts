import { MODULE_LISTS } from '../../platform/core/module/module-lists.generated';
import { documentTaskQueue } from '../../platform/kits/tasks/tasks';

// Collection names, the task queue and the payment's names (statuses, methods, purposes), apart from the model: the
// module definition and the public face (loaded at every cold start) need only these. payments.model.ts re-exports them.

export const PAYMENTS = 'payments';
/** `payment_tips/{id}`: how many tips a payer gave for one ride or order (server only). */
export const PAYMENT_TIPS = 'payment_tips';

/** Expires a gateway payment still PENDING at its deadline. */
export const PAYMENT_EXPIRY_QUEUE = documentTaskQueue('paymentExpiry', 'paymentId');

export const STAFF_REFUNDS = 'payment_staff_refunds';

export const PAYMENT_STATUSES = ['PENDING', 'AUTHORIZED', 'SUCCEEDED', 'FAILED', 'CANCELLED', 'EXPIRED', 'REFUNDED', 'PARTIALLY_REFUNDED'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export const PAYMENT_METHODS = ['WALLET', 'CASH', 'GATEWAY'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const PAYMENT_PURPOSES = MODULE_LISTS.paymentPurposes; // claimed by the module definitions (`paymentPurposes`)
export type PaymentPurpose = (typeof PAYMENT_PURPOSES)[number];
