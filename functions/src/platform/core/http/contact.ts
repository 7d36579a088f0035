import { z } from 'zod';

// Contact fields shared by every module that takes an email or a phone.
export const EmailSchema = z.email({ message: 'must be a valid email address' }).max(254).meta({ example: 'lan@example.com' });

// Phones: parsed and validated with libphonenumber-js (Google's numbering plans, `max` metadata: the digits are
// checked, not only the length), stored in E.164. A number typed without a country code is Vietnamese.
export const DEFAULT_PHONE_COUNTRY = 'VN';

type PhoneLib = typeof import('libphonenumber-js/max');
let phoneLib: PhoneLib | undefined;
// Loaded on first use: the metadata is ~145 KB of JSON that routes without a phone never need.
const lib = (): PhoneLib => (phoneLib ??= require('libphonenumber-js/max') as PhoneLib);

export interface ParsedPhone {
  /** `+84912345678` */
  e164: string;
  /** ISO 3166 country of the number (`VN`), when the numbering plan tells it. */
  country: string | undefined;
  /** libphonenumber's type (`MOBILE`, `FIXED_LINE`, `PREMIUM_RATE`…; needs the `max` metadata), if known. */
  type: string | undefined;
}

/**
 * A phone as people type it — `0912 345 678`, `0912345678`, `+84 912 345 678`, `84912345678`, `(+84) 912-345-678`,
 * `0084 912 345 678` — or undefined when it is no valid number (`+12345678`, `0912`, letters, an extension).
 */
export function parsePhone(input: string): ParsedPhone | undefined {
  const text = input.trim();
  // Letters would be read as a keypad's digits (1-800-FLOWERS): never what a form field means here.
  if (text === '' || text.length > 32 || /\p{L}/u.test(text)) return undefined;
  const parsed = lib().parsePhoneNumberFromString(text, DEFAULT_PHONE_COUNTRY);
  if (!parsed || parsed.ext || !parsed.isValid()) return undefined;
  return { e164: parsed.number, country: parsed.country, type: parsed.getType() };
}

/** What was typed without its separators (spaces, dots, dashes, brackets): the key of a number that does not parse. */
export function phoneDigits(input: string): string {
  return input.trim().replace(/[\s().-]/g, '');
}

/**
 * The keys an account's number may be stored under: its E.164 form first, then, for a plan dialled with a trunk
 * prefix (VN's 0), the form that keeps it after the country code (`+840912345678`), which the former check (any
 * E.164-shaped string) let through. Sign-in and uniqueness look under both.
 */
export function phoneLookupKeys(e164: string): string[] {
  const parsed = lib().parsePhoneNumberFromString(e164);
  if (!parsed) return [e164];
  const national = parsed.formatNational().replace(/\D/g, '');
  const prefix = national.endsWith(parsed.nationalNumber) ? national.slice(0, national.length - parsed.nationalNumber.length) : '';
  const legacy = `+${parsed.countryCallingCode}${prefix}${parsed.nationalNumber}`;
  return prefix !== '' && legacy !== e164 ? [e164, legacy] : [e164];
}

// Only these get texts: premium-rate (VN 1900…), toll-free, shared-cost and fixed-line numbers are where SMS
// pumping sends codes (we pay per text, some of it to the number's operator) or where a text never arrives.
const SMS_NUMBER_TYPES = new Set(['MOBILE', 'FIXED_LINE_OR_MOBILE']);

/** Whether codes may be texted to the number: a mobile one, or one whose plan cannot tell mobile from fixed (US). */
export function receivesSms(phone: Pick<ParsedPhone, 'type'>): boolean {
  return SMS_NUMBER_TYPES.has(phone.type ?? '');
}

export const PhoneSchema = z
  .string()
  .max(32)
  .transform((value, ctx) => {
    const phone = parsePhone(value);
    if (phone) return phone.e164;
    ctx.issues.push({ code: 'custom', message: 'must be a valid phone number, e.g. 0912 345 678 or +84912345678', input: value });
    return z.NEVER;
  })
  .meta({
    example: '0912 345 678',
    description:
      'A phone number as typed: without a country code it is Vietnamese (0912 345 678, 0912345678); with one, +84 912 345 678 or 84912345678. Stored and answered in E.164 (+84912345678).',
  });
