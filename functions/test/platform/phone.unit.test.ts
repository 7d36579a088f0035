import { z } from 'zod';
import { parsePhone, phoneDigits, phoneLookupKeys, PhoneSchema, receivesSms } from '../../src/platform/core/http/contact';
import { ConfigError, parseConfig } from '../../src/platform/core/config';
import { testConfig, TEST_JWT_REFRESH_SECRET, TEST_JWT_SECRET } from '../helpers/config';

// One phone field for every module: numbers as people type them, validated against the numbering plans and kept
// in E.164.

describe('parsePhone', () => {
  it.each([
    '0912 345 678',
    '0912345678',
    '091.234.5678',
    '0912-345-678',
    '+84 912 345 678',
    '+84912345678',
    '(+84) 912-345-678',
    '84912345678',
    '0084 912 345 678',
    '+840912345678',
    '  0912 345 678  ',
  ])('%j is +84912345678 in Vietnam', (typed) => {
    expect(parsePhone(typed)).toEqual({ e164: '+84912345678', country: 'VN', type: 'MOBILE' });
  });

  it('keeps fixed lines and hotlines, and numbers of other countries typed with their code', () => {
    expect(parsePhone('028 3829 7943')).toEqual({ e164: '+842838297943', country: 'VN', type: 'FIXED_LINE' });
    expect(parsePhone('1900 1234')).toEqual({ e164: '+8419001234', country: 'VN', type: 'PREMIUM_RATE' });
    expect(parsePhone('+33 6 12 34 56 78')).toEqual({ e164: '+33612345678', country: 'FR', type: 'MOBILE' });
    expect(parsePhone('+1 415 555 2671')).toEqual({ e164: '+14155552671', country: 'US', type: 'FIXED_LINE_OR_MOBILE' });
  });

  it.each([
    ['+12345678', 'too short for its country'],
    ['12345678', 'not a Vietnamese number'],
    ['0912', 'too short'],
    ['0162 345 6789', 'an 11-digit mobile number retired in 2018'],
    ['0912 ABC 678', 'letters'],
    ['1-800-FLOWERS', 'a keypad word'],
    ['0912 345 678 ext. 12', 'an extension'],
    ['', 'empty'],
    ['0'.repeat(40), 'too long'],
  ])('%j is refused (%s)', (typed) => {
    expect(parsePhone(typed)).toBeUndefined();
  });

  it('the country of a stored number, for the SMS allow-list', () => {
    expect(parsePhone('+84912345678')?.country).toBe('VN');
    expect(parsePhone('+14155552671')?.country).toBe('US');
    expect(parsePhone('+12345678')?.country).toBeUndefined();
  });

  it('a number that does not parse is keyed by what was typed without separators', () => {
    expect(phoneDigits(' (+84) 912-34.5 ')).toBe('+84912345');
  });
});

describe('receivesSms (where codes may be texted: SMS toll fraud)', () => {
  it.each([
    ['0912 345 678', 'MOBILE', true],
    ['0331 234 567', 'MOBILE', true],
    ['+1 415 555 0100', 'FIXED_LINE_OR_MOBILE', true],
    ['1900 1234', 'PREMIUM_RATE', false],
    ['1900 123 456', 'PREMIUM_RATE', false],
    ['1800 1234', 'TOLL_FREE', false],
    ['024 3823 4567', 'FIXED_LINE', false],
    ['+65 6123 4567', 'FIXED_LINE', false],
  ])('%s is %s: texted %s', (typed, type, texted) => {
    const phone = parsePhone(typed)!;
    expect(phone.type).toBe(type);
    expect(receivesSms(phone)).toBe(texted);
  });
});

describe('phoneLookupKeys (accounts stored before the numbers were normalised)', () => {
  it('looks under the E.164 key, then under the form with the trunk 0 kept after +84', () => {
    expect(phoneLookupKeys('+84912345678')).toEqual(['+84912345678', '+840912345678']);
    expect(phoneLookupKeys('+447911123456')).toEqual(['+447911123456', '+4407911123456']);
  });

  it('a plan without a trunk prefix has one key', () => {
    expect(phoneLookupKeys('+14155552671')).toEqual(['+14155552671']);
  });
});

describe('PhoneSchema', () => {
  const body = z.object({ phone: PhoneSchema });

  it('answers E.164 for what was typed', () => {
    expect(body.parse({ phone: '0912 345 678' })).toEqual({ phone: '+84912345678' });
  });

  it('refuses what is no number with one field problem', () => {
    const parsed = body.safeParse({ phone: '+12345678' });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues).toMatchObject([{ path: ['phone'], message: 'must be a valid phone number, e.g. 0912 345 678 or +84912345678' }]);
    expect(body.safeParse({ phone: 912345678 }).success).toBe(false);
  });
});

describe('SMS_COUNTRIES', () => {
  it('defaults to Vietnam; takes a list of two-letter codes, any case', () => {
    expect(testConfig().SMS_COUNTRIES).toEqual(['VN']);
    expect(testConfig({ SMS_COUNTRIES: 'vn, th ,LA' }).SMS_COUNTRIES).toEqual(['VN', 'TH', 'LA']);
  });

  it('refuses what is not a country code', () => {
    expect(() => parseConfig({ JWT_SECRET: TEST_JWT_SECRET, JWT_REFRESH_SECRET: TEST_JWT_REFRESH_SECRET, SMS_COUNTRIES: 'VN,Vietnam' })).toThrow(ConfigError);
  });
});
