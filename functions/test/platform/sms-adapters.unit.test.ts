import { createSmsSender, esmsSms, httpSms, twilioSms } from '../../src/platform/core/sms/sms';
import { testConfig } from '../helpers/config';

type Call = { url: string; init: RequestInit };
function fakeFetch(response: { status?: number; body?: unknown } = {}) {
  const calls: Call[] = [];
  const impl = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return new Response(JSON.stringify(response.body ?? {}), { status: response.status ?? 200 });
  }) as unknown as typeof fetch;
  return { calls, impl };
}

describe('SMS adapters send their real request formats', () => {
  it('twilio: form-encoded To/From/Body to the Messages API with HTTP Basic', async () => {
    const f = fakeFetch({ status: 201, body: { sid: 'SM1' } });
    const sms = twilioSms({ apiBase: 'https://api.twilio.com', accountSid: 'AC123', authToken: 'tok', from: '+15005550006' }, f.impl);
    expect(await sms.send({ to: '+84912345678', text: 'code 123456' })).toBe(true);
    expect(f.calls[0].url).toBe('https://api.twilio.com/2010-04-01/Accounts/AC123/Messages.json');
    const headers = f.calls[0].init.headers as Record<string, string>;
    expect(headers.authorization).toBe(`Basic ${Buffer.from('AC123:tok').toString('base64')}`);
    expect(headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(f.calls[0].init.body as string))).toEqual({ To: '+84912345678', From: '+15005550006', Body: 'code 123456' });
  });

  it('twilio: a Messaging Service SID goes in MessagingServiceSid; a 4xx is a failure', async () => {
    const f = fakeFetch({ status: 400 });
    const sms = twilioSms({ apiBase: 'https://api.twilio.com', accountSid: 'AC1', authToken: 't', from: 'MG999' }, f.impl);
    expect(await sms.send({ to: '+84912345678', text: 'x' })).toBe(false);
    expect(new URLSearchParams(f.calls[0].init.body as string).get('MessagingServiceSid')).toBe('MG999');
  });

  it('esms: JSON to SendMultipleMessage_V4_post_json; CodeResult 100 is success, anything else a failure', async () => {
    const ok = fakeFetch({ body: { CodeResult: '100', SMSID: 'abc' } });
    const sms = esmsSms({ apiBase: 'https://rest.esms.vn', apiKey: 'K', secretKey: 'S', brandname: 'SUPERAPP' }, ok.impl);
    expect(await sms.send({ to: '+84912345678', text: 'ma 123456' })).toBe(true);
    expect(ok.calls[0].url).toBe('https://rest.esms.vn/MainService.svc/json/SendMultipleMessage_V4_post_json/');
    expect(JSON.parse(ok.calls[0].init.body as string)).toEqual({
      ApiKey: 'K',
      SecretKey: 'S',
      Phone: '84912345678',
      Content: 'ma 123456',
      Brandname: 'SUPERAPP',
      SmsType: '2',
      IsUnicode: '0',
    });
    const refused = fakeFetch({ body: { CodeResult: '104', ErrorMessage: 'Brandname not registered' } });
    expect(
      await esmsSms({ apiBase: 'https://rest.esms.vn', apiKey: 'K', secretKey: 'S', brandname: 'X' }, refused.impl).send({ to: '+84912345678', text: 'x' }),
    ).toBe(false);
  });

  it('http: JSON {to, text} with the API key as bearer; network errors are failures, not exceptions', async () => {
    const f = fakeFetch({ status: 202 });
    expect(await httpSms('https://sms.example.test/send', 'key', f.impl).send({ to: '+84912345678', text: 'hi' })).toBe(true);
    expect(JSON.parse(f.calls[0].init.body as string)).toEqual({ to: '+84912345678', text: 'hi' });
    expect((f.calls[0].init.headers as Record<string, string>).authorization).toBe('Bearer key');
    const broken = (async () => {
      throw new Error('ECONNREFUSED');
    }) as unknown as typeof fetch;
    expect(await httpSms('https://sms.example.test/send', undefined, broken).send({ to: '+84912345678', text: 'hi' })).toBe(false);
  });

  it('SMS_PROVIDER selects the adapter; each provider needs its settings at boot', () => {
    expect(createSmsSender(testConfig()).provider).toBe('console');
    expect(createSmsSender(testConfig({ SMS_PROVIDER: 'http', SMS_HTTP_URL: 'http://127.0.0.1:1/sms' })).provider).toBe('http');
    expect(createSmsSender(testConfig({ SMS_PROVIDER: 'esms', ESMS_API_KEY: 'k', ESMS_SECRET_KEY: 's', ESMS_BRANDNAME: 'b' })).provider).toBe('esms');
    expect(() => testConfig({ SMS_PROVIDER: 'twilio' })).toThrow(/TWILIO_ACCOUNT_SID is required when SMS_PROVIDER=twilio/);
    expect(() => testConfig({ SMS_PROVIDER: 'http' })).toThrow(/SMS_HTTP_URL is required/);
  });
});
