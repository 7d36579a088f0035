import * as z from 'zod/mini';
import { defineTaskQueue } from '../../platform/kits/tasks/tasks';

// Collection names, apart from the schemas: the module definition (loaded at every cold start) needs only these.
/** `schools/{id}`: schools on the map (a catalog of the platform kit), a partner each. */
export const SCHOOLS = 'schools';
/** `school_programs/{schoolId}_{programKey}`: a school's programs: level, ages, tuition. */
export const SCHOOL_PROGRAMS = 'school_programs';
/** `school_follow_ups/{consultationId}`: the school's follow-up of a family after a consultation (its stages, history). */
export const SCHOOL_FOLLOW_UPS = 'school_follow_ups';
/** `school_trip_plans/{id}`: a child's school run for a term (home ⇄ school, the weekdays, its driver); parent and driver listen. */
export const SCHOOL_TRIP_PLANS = 'school_trip_plans';
/** `school_trips/{planId}_{YYYYMMDD}_{AM|PM}`: one day's leg of a plan, followed live by the parent. */
export const SCHOOL_TRIPS = 'school_trips';
/** The task queue of school trips' timers (tripDeadline): one task per trip and due time (`armedFor`, in ms). */
export const SCHOOL_TRIP_QUEUE = defineTaskQueue(
  'schoolTripExpiry',
  z.object({ tripId: z.string().check(z.minLength(1), z.maxLength(1500)), armedFor: z.optional(z.string().check(z.maxLength(20))) }),
);
