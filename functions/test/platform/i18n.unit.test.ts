import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  defineMessages,
  formatDateTime,
  formatTime,
  formatVnd,
  formatterFor,
  LOCALES,
  mail,
  negotiateLocale,
  notice,
  requestLocale,
  sms,
  asWritten,
  type Locale,
} from '../../src/platform/kits/i18n';
import { defaultLocale, useDefaultLocale } from '../../src/platform/kits/i18n/default-locale';
import { localeOf, newUserRecord, toProfile } from '../../src/modules/users/users.model';
import { testConfig } from '../helpers/config';

describe('Accept-Language → locale', () => {
  it.each([
    ['vi', 'vi'],
    ['vi-VN', 'vi'],
    ['VI-vn', 'vi'],
    ['en', 'en'],
    ['en-US', 'en'],
    ['en-GB,en;q=0.9', 'en'],
    ['fr-FR,fr;q=0.9,en;q=0.8,vi;q=0.7', 'en'], // the first supported by weight
    ['fr-FR,fr;q=0.9,vi;q=0.8,en;q=0.7', 'vi'],
    ['en;q=0.5,vi;q=0.9', 'vi'], // weight, not order
    ['en;q=0.8,vi;q=0.8', 'en'], // a tie keeps the order given
    ['vi;q=0,en', 'en'], // q=0 refuses
    ['en;q=1.0', 'en'],
    ['en;q=2,vi;q=0.1', 'vi'], // a weight above 1 is malformed: that range is left out
    ['en;q=abc', 'fallback'],
    ['en-', 'fallback'],
    ['fr, de', 'fallback'],
    ['', 'fallback'],
    ['*', 'fallback'], // fetch's own default header: any language
    ['fr,*;q=0.5', 'fallback'],
  ])('%j → %s', (header, expected) => {
    expect(negotiateLocale(header, 'vi')).toBe(expected === 'fallback' ? 'vi' : expected);
    expect(negotiateLocale(header, 'en')).toBe(expected === 'fallback' ? 'en' : expected);
  });

  it('absent: the fallback; `*` picks a language the header did not refuse', () => {
    expect(negotiateLocale(undefined, 'vi')).toBe('vi');
    expect(negotiateLocale('vi;q=0, *', 'vi')).toBe('en');
    expect(negotiateLocale('en;q=0, *', 'en')).toBe('vi');
  });

  it("requestLocale: a request's validated headers, or the default", () => {
    expect([requestLocale({ 'accept-language': 'en-US,vi;q=0.5' }, 'vi'), requestLocale({}, 'vi'), requestLocale({ 'accept-language': 'fr' }, 'en')]).toEqual([
      'en',
      'vi',
      'en',
    ]);
  });

  it('reads only the start of an endless header', () => {
    const huge = `${'x-private-tag;q=0.1,'.repeat(5_000)}vi`;
    expect(negotiateLocale(huge, 'en')).toBe('en');
    expect(negotiateLocale(`vi,${huge}`, 'en')).toBe('vi');
  });
});

describe('VND and Vietnam time, whatever the machine time zone', () => {
  const t = Date.UTC(2026, 0, 5, 17, 30); // 00:30 on 6 January in Hồ Chí Minh City (UTC+7)

  it('formats đồng as Intl does for vi-VN and en-US', () => {
    expect(formatVnd(150_000, 'vi')).toBe('150.000\u00a0₫');
    expect(formatVnd(1_250_000, 'vi')).toBe('1.250.000\u00a0₫');
    expect(formatVnd(0, 'vi')).toBe('0\u00a0₫');
    expect(formatVnd(150_000, 'en')).toBe('₫150,000');
    expect(formatVnd(1_250_000, 'en')).toBe('₫1,250,000');
    expect(formatterFor('en').vnd(52_000)).toBe('₫52,000');
  });

  it('formats times in Asia/Ho_Chi_Minh', () => {
    expect([formatTime(t, 'vi'), formatTime(t, 'en')]).toEqual(['00:30', '12:30 AM']);
    expect([formatDateTime(t, 'vi'), formatDateTime(t, 'en')]).toEqual(['00:30 6 thg 1, 2026', 'Jan 6, 2026, 12:30 AM']);
    expect(formatTime(Date.UTC(2026, 0, 5, 7, 5), 'vi')).toBe('14:05');
  });

  // A process's zone is fixed when it starts (jest's process.env is a copy): the formatter runs in a new Node per TZ.
  it.each([
    ['UTC', 17],
    ['America/Los_Angeles', 9],
    ['Asia/Tokyo', 2],
  ])('a machine on TZ=%s writes the same texts', (tz, localHour) => {
    const { buildSync } = require('esbuild') as typeof import('esbuild');
    const [bundle] = buildSync({
      entryPoints: [path.join(__dirname, '..', '..', 'src', 'platform', 'kits', 'i18n', 'format.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      write: false,
    }).outputFiles;
    const probe = `${bundle.text}\nconst t = ${t}; process.stdout.write(JSON.stringify([new Date(t).getHours(), formatTime(t, 'vi'), formatTime(t, 'en'), formatDateTime(t, 'vi'), formatDateTime(t, 'en')]));`;
    const res = spawnSync(process.execPath, ['-e', probe], { env: { PATH: process.env.PATH ?? '', TZ: tz }, encoding: 'utf8' });
    expect(res.stderr).toBe('');
    // The machine's zone is the one set (the local hour follows it), and the texts do not follow it.
    expect(JSON.parse(res.stdout)).toEqual([localHour, '00:30', '12:30 AM', '00:30 6 thg 1, 2026', 'Jan 6, 2026, 12:30 AM']);
  });
});

describe('message catalogues', () => {
  // Every `<module>.texts.ts` of src/: a catalogue added later is checked without listing it here.
  const srcDir = path.join(__dirname, '..', '..', 'src');
  const textFiles = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? textFiles(path.join(dir, e.name)) : e.name.endsWith('.texts.ts') ? [path.join(dir, e.name)] : []));
  type Catalogue = ReturnType<typeof defineMessages>;
  const catalogues = textFiles(srcDir).flatMap((file) =>
    Object.entries(require(file) as Record<string, unknown>)
      .filter((entry): entry is [string, Catalogue] => (entry[1] as { kind?: unknown })?.kind === 'messages')
      .map(([name, catalogue]) => ({ name: `${path.relative(srcDir, file)}: ${name}`, catalogue })),
  );
  const messages = catalogues.flatMap(({ name, catalogue }) => Object.keys(catalogue.defs).map((key) => ({ name: `${name} ${key}`, key, catalogue })));

  it('finds the catalogue of every module that writes for people', () => {
    expect(catalogues.map((c) => c.name.split(':')[0]).sort()).toEqual(
      [
        'auth/auth.texts.ts',
        'bookings/bookings.texts.ts',
        'chat/chat.texts.ts',
        'delivery/delivery.texts.ts',
        'driver/driver.texts.ts',
        'orders/orders.texts.ts',
        'partners/partners.texts.ts',
        'payments/payments.texts.ts',
        'rentals/rentals.texts.ts',
        'rides/rides.texts.ts',
        'schools/schools.texts.ts',
        'social/social.texts.ts',
        'support/support.texts.ts',
        'wallet/wallet.texts.ts',
      ].map((f) => `modules/${f}`),
    );
    expect(messages.length).toBeGreaterThanOrEqual(22);
  });

  it.each(LOCALES)('every message has a %s text: filled in, same fields as the others, no stray values', (locale) => {
    for (const { name, key, catalogue } of messages) {
      const def = catalogue.defs[key] as unknown as Record<Locale, unknown> & { example: never; channel: string };
      expect([name, typeof def[locale]]).toEqual([name, 'function']);
      const text = catalogue.render(key as never, def.example, locale) as unknown as Record<string, string>;
      const fields = { notice: ['body', 'title'], mail: ['subject', 'text'], sms: ['text'] }[def.channel];
      expect([name, Object.keys(text).sort()]).toEqual([name, fields]);
      for (const value of Object.values(text)) {
        expect([name, typeof value, value.trim().length > 0]).toEqual([name, 'string', true]);
        expect([name, value]).not.toEqual([name, expect.stringMatching(/undefined|null|NaN|\[object /)]);
      }
    }
  });

  it('Vietnamese and English texts differ (nothing left untranslated), and Vietnamese is written with its diacritics', () => {
    for (const { name, key, catalogue } of messages) {
      const def = catalogue.defs[key] as unknown as { example: never; channel: string };
      const [vi, en] = (['vi', 'en'] as const).map((l) => JSON.stringify(catalogue.render(key as never, def.example, l)));
      expect([name, vi === en]).toEqual([name, false]);
      if (def.channel !== 'sms') expect([name, /[à-ỹđ]/i.test(vi)]).toEqual([name, true]);
    }
  });

  it('SMS texts stay in plain GSM-7 letters in every language (Vietnamese without diacritics)', () => {
    const smsMessages = messages.filter(({ key, catalogue }) => (catalogue.defs[key] as { channel: string }).channel === 'sms');
    expect(smsMessages.length).toBeGreaterThan(0);
    for (const { name, key, catalogue } of smsMessages) {
      for (const locale of LOCALES) {
        const { text } = catalogue.render(key as never, (catalogue.defs[key] as unknown as { example: never }).example, locale) as { text: string };
        expect([name, locale, /^[A-Za-z0-9 .,:;!?()'"\-+@/]*$/.test(text)]).toEqual([name, locale, true]);
      }
    }
  });

  it('a catalogue renders its typed parameters per locale; words sent as written stay as written', () => {
    const texts = defineMessages({
      fare: notice<{ fare: number }>({
        example: { fare: 1 },
        vi: (p, f) => ({ title: 'Cước', body: f.vnd(p.fare) }),
        en: (p, f) => ({ title: 'Fare', body: f.vnd(p.fare) }),
      }),
    });
    expect(texts.render('fare', { fare: 52_000 }, 'vi')).toEqual({ title: 'Cước', body: '52.000\u00a0₫' });
    const later = texts.text('fare', { fare: 52_000 });
    expect([later.key, later.asWritten, later.render('en')]).toEqual(['fare', false, { title: 'Fare', body: '₫52,000' }]);
    const written = asWritten({ title: 'Khuyến mãi', body: 'Giảm 10%' });
    expect([written.asWritten, written.render('en'), written.render('vi')]).toEqual([
      true,
      { title: 'Khuyến mãi', body: 'Giảm 10%' },
      { title: 'Khuyến mãi', body: 'Giảm 10%' },
    ]);
  });

  it('a missing translation, an unknown key or a wrong parameter does not compile', () => {
    // @ts-expect-error: no English text
    const missing = notice({ example: {}, vi: () => ({ title: 'Chào', body: 'Xin chào' }) });
    // @ts-expect-error: a mail has a subject and a text, not a title
    const wrongShape = mail({ example: {}, vi: () => ({ title: 'a', body: 'b' }), en: () => ({ title: 'a', body: 'b' }) });
    const texts = defineMessages({
      code: sms<{ code: string }>({ example: { code: '1' }, vi: (p) => ({ text: `Ma ${p.code}` }), en: (p) => ({ text: `Code ${p.code}` }) }),
    });
    // @ts-expect-error: no such key
    expect(() => texts.render('other', { code: '1' }, 'vi')).toThrow();
    // @ts-expect-error: the parameter is a string
    expect(texts.render('code', { code: 1 }, 'en')).toEqual({ text: 'Code 1' });
    expect([missing.en, wrongShape.channel]).toEqual([undefined, 'mail']);
  });
});

describe('the default locale', () => {
  it('is vi unless configured; an account without a language reads as it', () => {
    expect(testConfig().DEFAULT_LOCALE).toBe('vi');
    expect(testConfig({ DEFAULT_LOCALE: 'en' }).DEFAULT_LOCALE).toBe('en');
    expect(() => testConfig({ DEFAULT_LOCALE: 'fr' })).toThrow(/DEFAULT_LOCALE/);
    const older = newUserRecord({ id: 'u1', email: 'lan@example.com', name: 'Lan', passwordHash: null, emailVerified: true, provider: null, now: 1 });
    expect('locale' in older).toBe(false);
    const chosen = { ...older, locale: 'en' as const };
    try {
      useDefaultLocale('vi');
      expect([localeOf(older), toProfile(older).locale, toProfile(chosen).locale]).toEqual(['vi', 'vi', 'en']);
      useDefaultLocale('en');
      expect([defaultLocale(), toProfile(older).locale, localeOf(undefined)]).toEqual(['en', 'en', 'en']);
      expect(localeOf({ locale: 'fr' as Locale })).toBe('en'); // a stored value outside the enum reads as the default
    } finally {
      useDefaultLocale('vi');
    }
  });
});
