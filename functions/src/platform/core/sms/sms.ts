import type { AppConfig } from '../config';
import { logger } from '../logging/logger';

export type SmsProviderName = AppConfig['SMS_PROVIDER'];

export interface SmsMessage {
  /** E.164, e.g. +84912345678 */
  to: string;
  text: string;
}

// `send` resolves true when the gateway accepted the message. Used for login OTP only.
export interface SmsSender {
  readonly provider: SmsProviderName;
  send(message: SmsMessage): Promise<boolean>;
}

type Fetch = typeof fetch;
const TIMEOUT_MS = 8000;

async function post(fetchImpl: Fetch, url: string, init: RequestInit): Promise<Response> {
  return fetchImpl(url, { ...init, method: 'POST', signal: AbortSignal.timeout(TIMEOUT_MS) });
}

// Runs one gateway call; `attempt` resolves null when accepted, else the reason. Never throws.
async function deliver(provider: SmsProviderName, to: string, attempt: () => Promise<string | null>): Promise<boolean> {
  let reason: string | null;
  try {
    reason = await attempt();
  } catch (err) {
    reason = (err as Error).message;
  }
  if (reason === null) return true;
  logger.warn('sms delivery failed', { provider, to: maskPhone(to), reason });
  return false;
}

export function maskPhone(phone: string): string {
  return phone.length <= 4 ? '****' : `${phone.slice(0, 3)}****${phone.slice(-3)}`;
}

// Development: nothing leaves the machine and the text (it holds a code) is not logged.
export function consoleSms(): SmsSender {
  return {
    provider: 'console',
    async send({ to, text }) {
      logger.info('sms not sent (SMS_PROVIDER=console)', { to: maskPhone(to), length: text.length });
      return false;
    },
  };
}

// A generic gateway: POST JSON {to, text} with the API key as a bearer token; any 2xx is accepted.
export function httpSms(url: string, apiKey: string | undefined, fetchImpl: Fetch = fetch): SmsSender {
  return {
    provider: 'http',
    send: ({ to, text }) =>
      deliver('http', to, async () => {
        const res = await post(fetchImpl, url, {
          headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
          body: JSON.stringify({ to, text }),
        });
        return res.ok ? null : `HTTP ${res.status}`;
      }),
  };
}

// Twilio Messages API: form-encoded To/From/Body, HTTP Basic with the account SID and auth token.
export function twilioSms(opts: { apiBase: string; accountSid: string; authToken: string; from: string }, fetchImpl: Fetch = fetch): SmsSender {
  const url = `${opts.apiBase}/2010-04-01/Accounts/${encodeURIComponent(opts.accountSid)}/Messages.json`;
  const basic = Buffer.from(`${opts.accountSid}:${opts.authToken}`).toString('base64');
  // A Messaging Service SID (MG…) goes in its own field; a phone number or sender id in From.
  const sender: Record<string, string> = opts.from.startsWith('MG') ? { MessagingServiceSid: opts.from } : { From: opts.from };
  return {
    provider: 'twilio',
    send: ({ to, text }) =>
      deliver('twilio', to, async () => {
        const res = await post(fetchImpl, url, {
          headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
          body: new URLSearchParams({ To: to, ...sender, Body: text }).toString(),
        });
        return res.ok ? null : `HTTP ${res.status}`;
      }),
  };
}

// eSMS.vn (Vietnam) SendMultipleMessage_V4_post_json, SmsType 2 (brandname customer care / OTP).
// The gateway answers HTTP 200 for everything; CodeResult "100" means accepted.
export function esmsSms(opts: { apiBase: string; apiKey: string; secretKey: string; brandname: string }, fetchImpl: Fetch = fetch): SmsSender {
  const url = `${opts.apiBase}/MainService.svc/json/SendMultipleMessage_V4_post_json/`;
  return {
    provider: 'esms',
    send: ({ to, text }) =>
      deliver('esms', to, async () => {
        const res = await post(fetchImpl, url, {
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            ApiKey: opts.apiKey,
            SecretKey: opts.secretKey,
            Phone: to.replace(/^\+/, ''),
            Content: text,
            Brandname: opts.brandname,
            SmsType: '2',
            IsUnicode: '0',
          }),
        });
        if (!res.ok) return `HTTP ${res.status}`;
        const body = (await res.json().catch(() => ({}))) as { CodeResult?: string; ErrorMessage?: string };
        return body.CodeResult === '100' ? null : `CodeResult ${body.CodeResult ?? '?'} ${body.ErrorMessage ?? ''}`.trim();
      }),
  };
}

// Boot validation guarantees the settings each provider needs (SMS_PROVIDER_REQUIREMENTS).
export function createSmsSender(config: Readonly<AppConfig>, fetchImpl: Fetch = fetch): SmsSender {
  switch (config.SMS_PROVIDER) {
    case 'http':
      return httpSms(config.SMS_HTTP_URL!, config.SMS_API_KEY, fetchImpl);
    case 'twilio':
      return twilioSms(
        { apiBase: config.TWILIO_API_BASE, accountSid: config.TWILIO_ACCOUNT_SID!, authToken: config.TWILIO_AUTH_TOKEN!, from: config.TWILIO_FROM! },
        fetchImpl,
      );
    case 'esms':
      return esmsSms(
        { apiBase: config.ESMS_API_BASE, apiKey: config.ESMS_API_KEY!, secretKey: config.ESMS_SECRET_KEY!, brandname: config.ESMS_BRANDNAME! },
        fetchImpl,
      );
    default:
      return consoleSms();
  }
}
