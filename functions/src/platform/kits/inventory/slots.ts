import { UnprocessableError } from '../../core/errors/app-error';
import type { ErrorCode } from '../../core/errors/codes';
import { isOpenAt, type OpeningHours } from '../catalog/hours';
import { atLocal, slotKey, slotsOf, type RangeRules } from './units';
import { iso } from '../time/time';
import { rangeProblemError } from './units.schemas';

// Slots within opening hours, for the verticals booked by appointment (a viewing, a doctor's visit, a consultation).
// A slot takes the 5-minute units it covers, so slots of different lengths on one resource (a doctor who changes from
// 30 to 20 minutes) never overlap, and the hours are checked every 5 minutes of it (a break inside it refuses it).

/** The grain of slot units: every slot length is a multiple of it. */
export const SLOT_UNIT_MINUTES = 5;
const UNIT_MS = SLOT_UNIT_MINUTES * 60_000;

/** The 5-minute unit keys a slot of `minutes` starting at `at` takes (`YYYY-MM-DDTHH:MM`). */
export function slotUnits(at: number, minutes: number, timeZone: string): string[] {
  return Array.from({ length: minutes / SLOT_UNIT_MINUTES }, (_, i) => slotKey(at + i * UNIT_MS, timeZone));
}

/** Whether every 5 minutes of `minutes` from `at` lie within the hours (a window of whole hours too). */
export const openThroughout = (hours: OpeningHours, at: number, minutes: number) =>
  Array.from({ length: minutes / SLOT_UNIT_MINUTES }, (_, i) => at + i * UNIT_MS).every((t) => isOpenAt(hours, t) === true) &&
  isOpenAt(hours, at + minutes * 60_000 - 60_000) === true;

/** The starts of a local day's slots of `minutes` that lie wholly within the hours, from `now` on. */
export function slotStartsOfDay(date: string, minutes: number, hours: OpeningHours, now: number, timeZone: string): number[] {
  const dayStart = atLocal(date, '00:00', timeZone);
  const ms = minutes * 60_000;
  return Array.from({ length: (24 * 60) / minutes }, (_, i) => dayStart + i * ms).filter((at) => at >= now && openThroughout(hours, at, minutes));
}

/**
 * Whether each slot is free: every unit it takes has room (`available` answers the units' capacity left, in one read
 * of them all).
 */
export async function freeSlots(
  starts: readonly number[],
  minutes: number,
  timeZone: string,
  available: (units: string[]) => Promise<Array<{ unit: string; available: number }>>,
): Promise<boolean[]> {
  if (starts.length === 0) return [];
  const perSlot = starts.map((at) => slotUnits(at, minutes, timeZone));
  const left = new Map((await available([...new Set(perSlot.flat())])).map((u) => [u.unit, u.available]));
  return perSlot.map((units) => units.every((u) => (left.get(u) ?? 0) > 0));
}

/**
 * The slot of `minutes` starting at `startsAt` (ISO): on its grid, within the range rules (400 naming `field`) and
 * wholly within the hours (422 with `closedCode`); its units are the 5-minute ones it covers.
 */
export function slotWithin(
  startsAt: string,
  o: { minutes: number; hours: OpeningHours; rules: RangeRules; now: number; timeZone: string; field: string; closedCode: ErrorCode },
): { units: string[]; startsAt: number; endsAt: number } {
  const from = Date.parse(startsAt);
  const r = slotsOf(from, from + o.minutes * 60_000, o.minutes, { ...o.rules, maxUnits: 1 }, o.now, o.timeZone);
  if ('problem' in r) throw rangeProblemError(r, { from: o.field, to: o.field });
  if (!openThroughout(o.hours, from, o.minutes)) throw new UnprocessableError('Outside the opening hours', { startsAt }).withCode(o.closedCode);
  return { units: slotUnits(from, o.minutes, o.timeZone), startsAt: from, endsAt: from + o.minutes * 60_000 };
}

/** A local day's slots of `minutes` within the hours from `now` on, each free or taken (the slots routes' answer). */
export async function daySlots(
  date: string,
  o: { minutes: number; hours: OpeningHours; now: number; timeZone: string },
  available: (units: string[]) => Promise<Array<{ unit: string; available: number }>>,
): Promise<Array<{ startsAt: string; free: boolean }>> {
  const starts = slotStartsOfDay(date, o.minutes, o.hours, o.now, o.timeZone);
  const free = await freeSlots(starts, o.minutes, o.timeZone, available);
  return starts.map((at, i) => ({ startsAt: iso(at), free: free[i] }));
}
