import { waitFor as waitUntil } from './wait';

// The local mail/SMS sinks the stack sends to (scripts/sinks.mjs); npm test passes SINKS_URL.
export const SINKS_URL = process.env.SINKS_URL ?? 'http://127.0.0.1:2680';

interface Mail {
  to: string;
  subject: string;
  text: string;
  receivedAt: number;
}
interface Sms {
  to: string;
  text: string;
  authorization: string | null;
  receivedAt: number;
}

export async function inbox(to: string): Promise<{ mails: Mail[]; sms: Sms[] }> {
  const res = await fetch(`${SINKS_URL}/inbox?to=${encodeURIComponent(to)}`);
  return (await res.json()) as { mails: Mail[]; sms: Sms[] };
}

// Generous: a mail goes through the Cloud Tasks queue and a cold worker on a busy machine.
const waitFor = <T>(find: () => Promise<T | undefined>, what: string) => waitUntil(find, { what, everyMs: 100 });

// The newest mail to `to` received after `since` (epoch ms), optionally with a subject.
export function waitForMail(to: string, opts: { since?: number; subject?: string } = {}): Promise<Mail> {
  return waitFor(async () => {
    const { mails } = await inbox(to);
    return mails.filter((m) => m.receivedAt >= (opts.since ?? 0) && (!opts.subject || m.subject === opts.subject)).at(-1);
  }, `a mail to ${to}`);
}

export function waitForSms(to: string, since = 0): Promise<Sms> {
  return waitFor(async () => (await inbox(to)).sms.filter((m) => m.receivedAt >= since).at(-1), `an SMS to ${to}`);
}

export function codeIn(text: string): string {
  const match = /\b(\d{6})\b/.exec(text);
  if (!match) throw new Error(`no 6-digit code in: ${text}`);
  return match[1];
}

export async function mailedCode(to: string, opts: { since?: number; subject?: string } = {}): Promise<string> {
  return codeIn((await waitForMail(to, opts)).text);
}
