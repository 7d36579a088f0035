import * as z from 'zod/mini';
import { defineTaskQueue, documentTaskQueue } from '../../platform/kits/tasks/tasks';

// Names and task queues, apart from the model: the module definition (loaded at every cold start) needs only these.
/** `orders/{id}`: the orders, each with its moves in `events`. */
export const ORDERS = 'orders';
/** `order_handovers/{orderId}`: the delivery code and wrong tries (API only: the courier must not read it). */
export const ORDER_HANDOVERS = 'order_handovers';
/** `order_ratings/{orderId}`: the consumer's rating of the store and the courier (API only: ratings stay anonymous). */
export const ORDER_RATINGS = 'order_ratings';
/** Cancels a PLACED order the store did not confirm in time. */
export const ORDER_CONFIRM_QUEUE = documentTaskQueue('orderConfirmTimeout', 'orderId');
const taskId = () => z.string().check(z.minLength(1), z.maxLength(1500));
/** Looks for a courier once the order is (nearly) ready, one task per search round (`attempt`: a stale round does nothing). */
export const ORDER_COURIER_QUEUE = defineTaskQueue('orderCourierSearch', z.object({ orderId: taskId(), attempt: z.optional(z.string()) }));
/** Releases a courier who has not picked the order up in time (`assignment`: the assignment's time; another assignment's task does nothing). */
export const ORDER_PICKUP_QUEUE = defineTaskQueue('orderPickupTimeout', z.object({ orderId: taskId(), assignment: z.optional(z.string()) }));
