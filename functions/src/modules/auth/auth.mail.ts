import type { Locale } from '../../platform/kits/i18n';
import type { MailMessage } from '../../platform/core/mail/mailer';
import type { OtpPurpose } from './auth.model';
import { AUTH_TEXTS } from './auth.texts';

const minutes = (sec: number) => Math.round(sec / 60);

/** A code mail, in the language of the account it is for. */
export function codeMail(purpose: OtpPurpose, to: string, code: string, ttlSec: number, locale: Locale): MailMessage {
  return { to, ...AUTH_TEXTS.render('mail.code', { purpose, code, minutes: minutes(ttlSec) }, locale) };
}

// Sent instead of a code when someone registers an email that already has an active account.
export function alreadyRegisteredMail(to: string, locale: Locale): MailMessage {
  return { to, ...AUTH_TEXTS.render('mail.alreadyRegistered', {}, locale) };
}

export function codeSms(code: string, ttlSec: number, locale: Locale): string {
  return AUTH_TEXTS.render('sms.code', { code, minutes: minutes(ttlSec) }, locale).text;
}

export function maskEmail(email: string): string {
  const [local, domain] = email.split('@');
  return `${Array.from(local)[0] ?? ''}***@${domain}`;
}
