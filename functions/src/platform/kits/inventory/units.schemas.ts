import { z } from 'zod';
import { ValidationError } from '../../core/errors/app-error';
import { IsoDateSchema } from '../time/time.schemas';
import { isCalendarDate, type RangeProblem } from './units';

/** A calendar date `YYYY-MM-DD` that exists (a night, a check-in day): 2027-02-30 is a 400. */
export const CalendarDateSchema = IsoDateSchema.pipe(z.string().refine(isCalendarDate, 'must be a calendar date YYYY-MM-DD'));

const MESSAGES: { [P in RangeProblem['problem']]: (p: Extract<RangeProblem, { problem: P }>) => string } = {
  INVALID_DATE: () => 'not a calendar date (YYYY-MM-DD) or not on a whole hour',
  REVERSED: () => 'the end must come after the start',
  IN_THE_PAST: () => 'the start is in the past',
  TOO_LONG: (p) => `at most ${p.max} units in one booking`,
  TOO_FAR_AHEAD: (p) => `at most ${p.maxDaysAhead} days ahead`,
};

/** A range the units refused, as the 400 naming the request's field (`from` and `to` are e.g. `body.checkIn`, `body.checkOut`). */
export function rangeProblemError(p: RangeProblem, fields: { from: string; to: string }): ValidationError {
  const field = p.problem === 'INVALID_DATE' ? fields[p.field] : p.problem === 'REVERSED' ? fields.to : fields.from;
  const message = (MESSAGES[p.problem] as (x: RangeProblem) => string)(p);
  return new ValidationError(`Validation failed: ${field}: ${message}`, [{ field, message }]);
}
