import type { Locale } from './locales';

// People read amounts and times as in Vietnam, whatever the server's own time zone: Intl does the formatting,
// with the zone named, so a machine on UTC (Cloud Functions) or elsewhere writes the same text.
export const TIME_ZONE = 'Asia/Ho_Chi_Minh';
const INTL_LOCALE: Record<Locale, string> = { vi: 'vi-VN', en: 'en-US' };

// Intl formatters are costly to build: one of each per locale.
function perLocale<T>(build: (tag: string) => T): (locale: Locale) => T {
  const built = new Map<Locale, T>();
  return (locale) => {
    let value = built.get(locale);
    if (value === undefined) {
      value = build(INTL_LOCALE[locale]);
      built.set(locale, value);
    }
    return value;
  };
}

const vndFormat = perLocale((tag) => new Intl.NumberFormat(tag, { style: 'currency', currency: 'VND' }));
const timeFormat = perLocale((tag) => new Intl.DateTimeFormat(tag, { timeZone: TIME_ZONE, timeStyle: 'short' }));
const dateTimeFormat = perLocale((tag) => new Intl.DateTimeFormat(tag, { timeZone: TIME_ZONE, dateStyle: 'medium', timeStyle: 'short' }));

/** An amount in đồng for people: `150.000 ₫` (vi), `₫150,000` (en). */
export function formatVnd(amount: number, locale: Locale): string {
  return vndFormat(locale).format(amount);
}

/** A time of day in Vietnam: `14:05` (vi), `2:05 PM` (en). */
export function formatTime(ms: number, locale: Locale): string {
  return timeFormat(locale).format(ms);
}

/** A date and time in Vietnam: `14:05 6 thg 1, 2026` (vi), `Jan 6, 2026, 2:05 PM` (en). */
export function formatDateTime(ms: number, locale: Locale): string {
  return dateTimeFormat(locale).format(ms);
}

/** The formatting a message's text uses, bound to the reader's locale. */
export interface Formatter {
  readonly locale: Locale;
  vnd(amount: number): string;
  time(ms: number): string;
  dateTime(ms: number): string;
}

export function formatterFor(locale: Locale): Formatter {
  return { locale, vnd: (a) => formatVnd(a, locale), time: (ms) => formatTime(ms, locale), dateTime: (ms) => formatDateTime(ms, locale) };
}
