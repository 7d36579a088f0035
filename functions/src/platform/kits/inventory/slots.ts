import { UnprocessableError } from '../../core/errors/app-error';
import type { ErrorCode } from '../../core/errors/codes';
import { isOpenAt, type OpeningHours } from '../catalog/hours';
import { atLocal, slotKey, slotsOf, type RangeRules } from './units';
import { rangeProblemError } from './units.schemas';

// Slots within opening hours, for the verticals booked by appointment (a viewing, a doctor's visit, a consultation):
// the grid of a day, and one slot asked for, checked against the grid, the range rules and the hours.

/** The starts of a local day's slots of `minutes` that lie wholly within the hours, from `now` on. */
export function slotStartsOfDay(date: string, minutes: number, hours: OpeningHours, now: number, timeZone: string): number[] {
  const dayStart = atLocal(date, '00:00', timeZone);
  const ms = minutes * 60_000;
  return Array.from({ length: (24 * 60) / minutes }, (_, i) => dayStart + i * ms).filter(
    (at) => at >= now && isOpenAt(hours, at) === true && isOpenAt(hours, at + ms - 60_000) === true,
  );
}

/** The unit keys of slot starts (`YYYY-MM-DDTHH:MM`). */
export const slotKeys = (starts: readonly number[], timeZone: string) => starts.map((at) => slotKey(at, timeZone));

/**
 * The slot of `minutes` starting at `startsAt` (ISO): on the grid, within the range rules (400 naming `field`) and
 * wholly within the hours (422 with `closedCode`).
 */
export function slotWithin(
  startsAt: string,
  o: { minutes: number; hours: OpeningHours; rules: RangeRules; now: number; timeZone: string; field: string; closedCode: ErrorCode },
): { units: string[]; startsAt: number; endsAt: number } {
  const from = Date.parse(startsAt);
  const ms = o.minutes * 60_000;
  const r = slotsOf(from, from + ms, o.minutes, o.rules, o.now, o.timeZone);
  if ('problem' in r) throw rangeProblemError(r, { from: o.field, to: o.field });
  if (isOpenAt(o.hours, from) !== true || isOpenAt(o.hours, from + ms - 60_000) !== true)
    throw new UnprocessableError('Outside the opening hours', { startsAt }).withCode(o.closedCode);
  return { units: r.units, startsAt: from, endsAt: from + ms };
}
