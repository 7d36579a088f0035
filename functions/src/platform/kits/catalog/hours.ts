import { z } from 'zod';

// Opening hours kept in the place's own time zone (Asia/Ho_Chi_Minh unless it says otherwise), so `openNow`
// is right for a user anywhere. A slot whose close is not after its open runs past midnight (22:00–02:00).

export const WEEKDAYS = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const DEFAULT_TIME_ZONE = 'Asia/Ho_Chi_Minh';

/** A local clock time `HH:MM` (00:00 to 23:59): opening hours, a hotel's check-in. */
export const ClockTimeSchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM (00:00 to 23:59)');
const HHMM = ClockTimeSchema;

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export const OpeningHoursSchema = z
  .object({
    timeZone: z.string().max(64).refine(isTimeZone, 'must be an IANA time zone such as Asia/Ho_Chi_Minh').default(DEFAULT_TIME_ZONE),
    open24h: z.boolean().default(false).describe('Open around the clock (weekly is then ignored)'),
    weekly: z
      .array(z.object({ day: z.enum(WEEKDAYS), open: HHMM, close: HHMM }).describe('close ≤ open: the slot ends after midnight'))
      .max(28)
      .default([]),
  })
  .meta({ id: 'OpeningHours' });
export type OpeningHours = z.output<typeof OpeningHoursSchema>;

/** The same hours on each of `days` (a vertical's hours for a record that sets none), in Vietnam time. */
export function sameHours(days: readonly Weekday[], open: string, close: string): OpeningHours {
  return { timeZone: DEFAULT_TIME_ZONE, open24h: false, weekly: days.map((day) => ({ day, open, close })) };
}
/** Monday to Saturday. */
export const WORKING_DAYS: readonly Weekday[] = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

const formatters = new Map<string, Intl.DateTimeFormat>();
function localClock(at: number, timeZone: string): { day: number; minute: number } {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formatters.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(at)).map((p) => [p.type, p.value]));
  const day = WEEKDAYS.indexOf(String(parts.weekday).toUpperCase() as Weekday);
  return { day, minute: Number(parts.hour) * 60 + Number(parts.minute) };
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Whether the hours are open at `at` (epoch ms); null when no hours are known. */
export function isOpenAt(hours: OpeningHours | null | undefined, at: number): boolean | null {
  if (!hours) return null;
  if (hours.open24h) return true;
  if (hours.weekly.length === 0) return null;
  const { day, minute } = localClock(at, hours.timeZone);
  const yesterday = (day + 6) % 7;
  return hours.weekly.some((slot) => {
    const slotDay = WEEKDAYS.indexOf(slot.day);
    const open = minutesOf(slot.open);
    const close = minutesOf(slot.close);
    if (close > open) return slotDay === day && minute >= open && minute < close;
    return (slotDay === day && minute >= open) || (slotDay === yesterday && minute < close);
  });
}
