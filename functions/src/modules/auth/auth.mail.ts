import type { OtpPurpose } from './auth.model';

const minutes = (sec: number) => Math.round(sec / 60);

const SUBJECTS: Record<OtpPurpose, string> = {
  REGISTER: 'Confirm your email',
  LOGIN: 'Your sign-in code',
  PASSWORD_2FA: 'Your two-step sign-in code',
  PASSWORD_RESET: 'Reset your password',
  VERIFY_PHONE: 'Confirm your phone number',
};

export function codeMail(purpose: OtpPurpose, to: string, code: string, ttlSec: number) {
  return {
    to,
    subject: SUBJECTS[purpose],
    text:
      `Your code is ${code}. It expires in ${minutes(ttlSec)} minutes and works once.\n\n` +
      'If you did not ask for it, ignore this message; nobody can use it without access to this mailbox.',
  };
}

// Sent instead of a code when someone registers an email that already has an active account.
export function alreadyRegisteredMail(to: string) {
  return {
    to,
    subject: 'You already have an account',
    text:
      'Someone (maybe you) tried to register with this email address, which already has an account.\n' +
      'Sign in instead, or reset your password if you forgot it. No account was changed.',
  };
}

export function codeSms(code: string, ttlSec: number): string {
  return `Super-app: your sign-in code is ${code} (valid ${minutes(ttlSec)} min). Never share it.`;
}

export function maskEmail(email: string): string {
  const [local, domain] = email.split('@');
  return `${Array.from(local)[0] ?? ''}***@${domain}`;
}
