import { formatterFor, type Formatter } from './format';
import type { Locale } from './locales';

/** What a push and an inbox item show. */
export interface NoticeText {
  title: string;
  body: string;
}
export interface MailText {
  subject: string;
  text: string;
}
export interface SmsText {
  text: string;
}
interface TextOfChannel {
  notice: NoticeText;
  mail: MailText;
  sms: SmsText;
}
export type Channel = keyof TextOfChannel;

type Render<P, T> = (params: P, f: Formatter) => T;

/**
 * One message: its text in every locale (a locale left out does not compile) and example parameters, with which
 * the catalogue test renders every message in every locale.
 */
export type MessageDef<C extends Channel, P> = { readonly channel: C; readonly example: P } & { readonly [L in Locale]: Render<P, TextOfChannel[C]> };

// `notice<Params>({ example, vi, en })`: the parameters are declared once, each locale's function is typed by them.
const define =
  <C extends Channel>(channel: C) =>
  <P extends object = Record<string, never>>(def: { readonly example: P } & { readonly [L in Locale]: Render<P, TextOfChannel[C]> }): MessageDef<C, P> => ({
    ...def,
    channel,
  });
export const notice = define('notice');
export const mail = define('mail');
/** SMS texts stay in GSM-7 (Vietnamese without diacritics, as Vietnamese OTP texts are): Unicode halves a segment and some gateways send it garbled. */
export const sms = define('sms');

type AnyDef = { readonly channel: Channel; readonly example: unknown } & { readonly [L in Locale]: (params: never, f: Formatter) => unknown };
type ParamsOf<D> = D extends { readonly example: infer P } ? P : never;
type TextOf<D> = D extends { readonly channel: infer C extends Channel } ? TextOfChannel[C] : never;

/** A text to render later in each reader's locale (the notification hub renders one per recipient). */
export interface LocalizedText<T> {
  /** The catalogue key; '' for a text sent as written. */
  readonly key: string;
  readonly params: unknown;
  /** The same in every locale (a person's own words): nobody's locale needs reading. */
  readonly asWritten: boolean;
  render(locale: Locale): T;
}

/** A module's messages (`<module>.texts.ts`): typed keys and parameters, rendered per locale. */
export function defineMessages<Defs extends Record<string, AnyDef>>(defs: Defs) {
  const render = <K extends keyof Defs & string>(key: K, params: ParamsOf<Defs[K]>, locale: Locale): TextOf<Defs[K]> => {
    const def = defs[key] as unknown as Record<Locale, Render<ParamsOf<Defs[K]>, TextOf<Defs[K]>>>;
    return def[locale](params, formatterFor(locale));
  };
  return {
    kind: 'messages' as const,
    defs,
    /** The text of `key` in `locale`. */
    render,
    /** The text of `key`, rendered later in each reader's locale. */
    text<K extends keyof Defs & string>(key: K, params: ParamsOf<Defs[K]>): LocalizedText<TextOf<Defs[K]>> {
      return { key, params, asWritten: false, render: (locale) => render(key, params, locale) };
    },
  };
}

/** A text someone wrote (an administrator's broadcast): sent as written, whatever the reader's locale. */
export function asWritten<T>(text: T): LocalizedText<T> {
  return { key: '', params: text, asWritten: true, render: () => text };
}
