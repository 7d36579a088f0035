// The units a booking takes of a resource's capacity: nights (hotel rooms, parking by the day), hours (parking
// spaces) or named slots (viewings, appointments, consultations). A unit's key names its inventory document, so keys
// are plain, sortable and local to the resource's time zone: `2026-12-24` (the night that starts that evening),
// `2026-12-24T18` (the hour from 18:00), or the slot's own id.

export const UNIT_KINDS = ['NIGHT', 'HOUR', 'SLOT'] as const;
export type UnitKind = (typeof UNIT_KINDS)[number];

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** A calendar date `YYYY-MM-DD` that exists (2026-02-30 does not). */
export function isCalendarDate(date: string): boolean {
  const m = DATE.exec(date);
  if (!m) return false;
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return new Date(t).toISOString().slice(0, 10) === date;
}

const dayNumber = (date: string) => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY_MS;
const dateOfDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

const zoneFormats = new Map<string, Intl.DateTimeFormat>();
/** The local date and hour at `at` in `timeZone`. */
export function localTime(at: number, timeZone: string): { date: string; hour: number } {
  const { date, hour } = localParts(at, timeZone);
  return { date, hour };
}

/** The local date, hour and minute at `at` in `timeZone` (one formatter per zone). */
function localParts(at: number, timeZone: string): { date: string; hour: number; minute: number } {
  let format = zoneFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    zoneFormats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(at)).map((p) => [p.type, p.value]));
  return { date: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour), minute: Number(parts.minute) };
}

/** Why a range of units cannot be booked (the caller turns it into its 400 or 422 with its own code). */
export type RangeProblem =
  | { problem: 'INVALID_DATE'; field: 'from' | 'to' }
  | { problem: 'REVERSED' }
  | { problem: 'IN_THE_PAST' }
  | { problem: 'TOO_LONG'; max: number }
  | { problem: 'TOO_FAR_AHEAD'; maxDaysAhead: number };

export interface RangeRules {
  /** At most this many units in one booking. */
  maxUnits: number;
  /** The first unit at most this many days after today (local). */
  maxDaysAhead: number;
}

/**
 * The nights of a stay from the check-in date to the check-out date (local dates in the resource's zone): from
 * 2026-12-24 to 2026-12-26 are the nights of the 24th and the 25th. Check-in today is allowed, before it is not.
 */
export function nightsOf(from: string, to: string, rules: RangeRules, now: number, timeZone: string): { units: string[] } | RangeProblem {
  if (!isCalendarDate(from)) return { problem: 'INVALID_DATE', field: 'from' };
  if (!isCalendarDate(to)) return { problem: 'INVALID_DATE', field: 'to' };
  const [first, end] = [dayNumber(from), dayNumber(to)];
  if (end <= first) return { problem: 'REVERSED' };
  const today = dayNumber(localTime(now, timeZone).date);
  if (first < today) return { problem: 'IN_THE_PAST' };
  if (end - first > rules.maxUnits) return { problem: 'TOO_LONG', max: rules.maxUnits };
  if (first - today > rules.maxDaysAhead) return { problem: 'TOO_FAR_AHEAD', maxDaysAhead: rules.maxDaysAhead };
  return { units: Array.from({ length: end - first }, (_, i) => dateOfDay(first + i)) };
}

/**
 * The whole local hours from `from` to `to` (epoch milliseconds, each on a whole hour of the zone): 18:00 to 21:00 is
 * `…T18`, `…T19`, `…T20`. An hour already begun cannot be booked.
 */
export function hoursOf(from: number, to: number, rules: RangeRules, now: number, timeZone: string): { units: string[] } | RangeProblem {
  if (!Number.isSafeInteger(from) || from % 60_000 !== 0 || localParts(from, timeZone).minute !== 0) return { problem: 'INVALID_DATE', field: 'from' };
  if (!Number.isSafeInteger(to) || to % 60_000 !== 0 || localParts(to, timeZone).minute !== 0) return { problem: 'INVALID_DATE', field: 'to' };
  if (to <= from) return { problem: 'REVERSED' };
  if (from < now) return { problem: 'IN_THE_PAST' };
  const count = (to - from) / HOUR_MS;
  if (count > rules.maxUnits) return { problem: 'TOO_LONG', max: rules.maxUnits };
  if (dayNumber(localTime(from, timeZone).date) - dayNumber(localTime(now, timeZone).date) > rules.maxDaysAhead)
    return { problem: 'TOO_FAR_AHEAD', maxDaysAhead: rules.maxDaysAhead };
  return {
    units: Array.from({ length: count }, (_, i) => {
      const { date, hour } = localTime(from + i * HOUR_MS, timeZone);
      return `${date}T${String(hour).padStart(2, '0')}`;
    }),
  };
}

/** The instant a local date and time (`HH:MM`) happens in `timeZone` (a check-in at 14:00 on the first night). */
export function atLocal(date: string, time: string, timeZone: string): number {
  const guess = Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)), Number(time.slice(0, 2)), Number(time.slice(3, 5)));
  // The zone's offset at the guess, then again at the corrected instant (a change of offset between the two).
  const offsetAt = (t: number) => {
    const p = localParts(t, timeZone);
    return dayNumber(p.date) * DAY_MS + p.hour * HOUR_MS + p.minute * 60_000 - Math.floor(t / 60_000) * 60_000;
  };
  const first = guess - offsetAt(guess);
  return guess - offsetAt(first);
}

/** The day of the week of a calendar date: 0 Sunday … 6 Saturday. */
export const weekdayOf = (date: string): number => new Date(dayNumber(date) * DAY_MS).getUTCDay();

/** The dates from `from` to `to` (both included, `to` ≥ `from`, calendar dates). */
export function datesBetween(from: string, to: string): string[] {
  const [first, last] = [dayNumber(from), dayNumber(to)];
  return Array.from({ length: Math.max(0, last - first + 1) }, (_, i) => dateOfDay(first + i));
}

/**
 * The slots of `minutes` each from `from` to `to` (epoch ms, each on the zone's grid of `minutes`): a viewing from
 * 09:30 to 10:30 in half hours is `…T09:30`, `…T10:00`. A slot already begun cannot be booked.
 */
export function slotsOf(from: number, to: number, minutes: number, rules: RangeRules, now: number, timeZone: string): { units: string[] } | RangeProblem {
  const onGrid = (at: number) => Number.isSafeInteger(at) && at % 60_000 === 0 && localParts(at, timeZone).minute % minutes === 0;
  if (!onGrid(from)) return { problem: 'INVALID_DATE', field: 'from' };
  if (!onGrid(to)) return { problem: 'INVALID_DATE', field: 'to' };
  if (to <= from) return { problem: 'REVERSED' };
  if (from < now) return { problem: 'IN_THE_PAST' };
  const count = (to - from) / (minutes * 60_000);
  if (!Number.isInteger(count)) return { problem: 'INVALID_DATE', field: 'to' };
  if (count > rules.maxUnits) return { problem: 'TOO_LONG', max: rules.maxUnits };
  if (dayNumber(localTime(from, timeZone).date) - dayNumber(localTime(now, timeZone).date) > rules.maxDaysAhead)
    return { problem: 'TOO_FAR_AHEAD', maxDaysAhead: rules.maxDaysAhead };
  return { units: Array.from({ length: count }, (_, i) => slotKey(from + i * minutes * 60_000, timeZone)) };
}

/** The key of the slot starting at `at` in the zone: `YYYY-MM-DDTHH:MM`. */
export function slotKey(at: number, timeZone: string): string {
  const p = localParts(at, timeZone);
  return `${p.date}T${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}`;
}
