import { documentTaskQueue } from '../../platform/kits/tasks/tasks';

// Names and task queues, apart from the model: the module definition (loaded at every cold start) needs only these.
/** `orders/{id}`: the orders, each with its moves in `events`. */
export const ORDERS = 'orders';
/** `order_handovers/{orderId}`: the delivery code and wrong tries (API only: the courier must not read it). */
export const ORDER_HANDOVERS = 'order_handovers';
/** `order_ratings/{orderId}`: the consumer's rating of the store and the courier (API only: ratings stay anonymous). */
export const ORDER_RATINGS = 'order_ratings';
/** Cancels a PLACED order the store did not confirm in time. */
export const ORDER_CONFIRM_QUEUE = documentTaskQueue('orderConfirmTimeout', 'orderId');
/** Looks for a courier once the order is (nearly) ready; retried while nobody is free. */
export const ORDER_COURIER_QUEUE = documentTaskQueue('orderCourierSearch', 'orderId');
