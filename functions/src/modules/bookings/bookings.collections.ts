import * as z from 'zod/mini';
import { defineTaskQueue } from '../../platform/kits/tasks/tasks';

// Names and the task queue, apart from the model: the module definition (loaded at every cold start) needs only these.
/** `bookings/{id}`: every vertical's bookings (hotel stays, parking, viewings, appointments…), each with its moves in `events`. */
export const BOOKINGS = 'bookings';
/** `booking_inventory/{vertical}:{resourceId}_{unit}`: what the bookings take of a resource's capacity per unit (platform/kits/inventory). */
export const BOOKING_INVENTORY = 'booking_inventory';
/**
 * Expires a booking whose hold or whose partner's answer is overdue (`armedFor`: the due time the task was armed for;
 * a deadline moved later since has a task of its own).
 */
export const BOOKING_DEADLINE_QUEUE = defineTaskQueue(
  'bookingDeadline',
  z.object({ bookingId: z.string().check(z.minLength(1), z.maxLength(1500)), armedFor: z.optional(z.string().check(z.maxLength(20))) }),
);
/** A confirmed booking's reminder `hours` before its start (`startsAt`: the start it was armed for, in ms). */
export const BOOKING_REMINDER_QUEUE = defineTaskQueue(
  'bookingReminder',
  z.object({
    bookingId: z.string().check(z.minLength(1), z.maxLength(1500)),
    hours: z.string().check(z.regex(/^\d{1,3}$/)),
    startsAt: z.string().check(z.regex(/^\d{1,16}$/)),
  }),
);
