import { randomUUID } from 'node:crypto';
import { createAuthServices } from '../../../src/modules/auth/auth.wiring';
import { createOtpService } from '../../../src/modules/auth/otp.service';
import type { ClientInfo } from '../../../src/modules/auth/auth.model';
import type { MessageQueue, QueuedMessage } from '../../../src/platform/core/message-queue/message-queue';
import { usersRepo } from '../../../src/modules/users/users.repo';
import { buildApp } from '../../../src/app';
import { parseConfig } from '../../../src/platform/core/config';
import { createRateLimiter, memoryRateLimitStore } from '../../../src/platform/core/ratelimit/rate-limit';
import { call, uniqueEmail } from '../../helpers/api';
import { signUpByMail } from '../../helpers/accounts';
import { testConfig } from '../../helpers/config';
import { localSecret, requireEmulators } from '../../helpers/emulators';
import { listen } from '../../helpers/http';
import { codeIn, waitForSms } from '../../helpers/sinks';

// The auth services in-process on the Firestore emulator, with an injected clock and a queue that keeps
// what would be sent: the limits of a mailbox or a phone number are checked to the second.
beforeAll(requireEmulators);

const client: ClientInfo = { ip: '198.51.100.7', userAgent: 'jest', surface: 'CON', deviceName: null };
const randomPhone = () => `+8491${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;

function setup() {
  let now = Date.parse('2026-11-23T08:00:00Z');
  const sent: QueuedMessage[] = [];
  const messages: MessageQueue = {
    mode: 'background',
    async hand(_what, message) {
      if (message) sent.push(message);
    },
  };
  const services = createAuthServices(testConfig({ BCRYPT_COST: '10' }), { now: () => now, messages });
  const mailsTo = (to: string) =>
    sent.filter((m): m is Extract<QueuedMessage, { channel: 'mail' }> => m.channel === 'mail' && m.message.to === to).map((m) => m.message);
  const textsTo = (to: string) =>
    sent.filter((m): m is Extract<QueuedMessage, { channel: 'sms' }> => m.channel === 'sms' && m.message.to === to).map((m) => m.message);
  return { ...services, mailsTo, textsTo, advance: (ms: number) => (now += ms) };
}

describe('registration of an email that is still pending', () => {
  it('never changes its password, name or language; after the resend gap it mails a new code, and the code activates the first password', async () => {
    const { auth, mailsTo, advance } = setup();
    const email = uniqueEmail('victim');
    const first = await auth.register({ email, password: 'victim password 1', name: 'Victim' }, 'en');
    const repeat = await auth.register({ email, password: 'attacker password 2', name: 'Attacker' }, 'vi');
    expect(repeat).toEqual(first);
    expect(mailsTo(email)).toHaveLength(1); // the repeat within the gap sent nothing
    advance(61_000);
    await auth.register({ email, password: 'attacker password 3', name: 'Attacker' }, 'vi');
    const mails = mailsTo(email);
    expect(mails).toHaveLength(2);
    expect(mails[1].subject).toBe('Confirm your email'); // the first registration's English, not the repeat's Vietnamese
    const stored = await usersRepo.findByEmail(email);
    expect(stored).toMatchObject({ name: 'Victim', status: 'PENDING', locale: 'en' });

    const verified = await auth.verifyEmailOtp({ email, code: codeIn(mails[1].text), purpose: 'REGISTER' }, client);
    expect(verified.user.name).toBe('Victim');
    await expect(auth.loginPassword({ email, password: 'attacker password 2' }, client)).rejects.toMatchObject({ statusCode: 401 });
    await expect(auth.loginPassword({ email, password: 'attacker password 3' }, client)).rejects.toMatchObject({ statusCode: 401 });
    await expect(auth.loginPassword({ email, password: 'victim password 1' }, client)).resolves.toHaveProperty('accessToken');
  });

  it('a repeat that would be refused (the mailbox cap reached) still changes nothing and answers the same', async () => {
    const { auth, mailsTo, advance } = setup();
    const email = uniqueEmail('capped');
    const first = await auth.register({ email, password: 'victim password 1', name: 'Victim' }, 'en');
    for (let i = 0; i < 6; i += 1) {
      advance(61_000);
      expect(await auth.register({ email, password: `attacker password ${i}`, name: 'Attacker' }, 'en')).toEqual(first);
    }
    expect(mailsTo(email)).toHaveLength(5); // 5 codes per hour, then nothing
    const code = codeIn(mailsTo(email).at(-1)!.text);
    await auth.verifyEmailOtp({ email, code, purpose: 'REGISTER' }, client);
    await expect(auth.loginPassword({ email, password: 'attacker password 5' }, client)).rejects.toMatchObject({ statusCode: 401 });
    await expect(auth.loginPassword({ email, password: 'victim password 1' }, client)).resolves.toHaveProperty('accessToken');
  });
});

describe('registration of an active email (anti-enumeration, no mailbox flooding)', () => {
  it('answers exactly as for a new email, and its notice mail obeys the mailbox limits', async () => {
    const { auth, mailsTo, advance } = setup();
    const email = uniqueEmail('active');
    await auth.register({ email, password: 'owner password', name: 'Owner' }, 'en');
    await auth.verifyEmailOtp({ email, code: codeIn(mailsTo(email)[0].text), purpose: 'REGISTER' }, client);
    advance(61_000);
    const fresh = uniqueEmail('fresh');
    const forActive = await auth.register({ email, password: 'someone else', name: 'X' }, 'en');
    const forNew = await auth.register({ email: fresh, password: 'someone else', name: 'X' }, 'en');
    expect({ ...forActive, email: '' }).toEqual({ ...forNew, email: '' });
    expect(mailsTo(email).map((m) => m.subject)).toEqual(['Confirm your email', 'You already have an account']);
    // Repeats: one notice per resend gap, five per hour at most.
    for (let i = 0; i < 10; i += 1) await auth.register({ email, password: 'someone else', name: 'X' }, 'en');
    expect(mailsTo(email)).toHaveLength(2);
    for (let i = 0; i < 8; i += 1) {
      advance(61_000);
      await auth.register({ email, password: 'someone else', name: 'X' }, 'en');
    }
    // REGISTER sends this hour: the code, then notices up to the cap of 5.
    expect(mailsTo(email)).toHaveLength(5);
    await expect(auth.loginPassword({ email, password: 'owner password' }, client)).resolves.toHaveProperty('accessToken');
  });
});

describe('limits of a destination, whichever account asks (SMS pumping)', () => {
  it('account A then account B sending VERIFY_PHONE to one number back to back: B gets 429', async () => {
    const { auth, textsTo } = setup();
    const [a, b] = [randomUUID(), randomUUID()];
    const phone = randomPhone();
    await auth.sendPhoneOtp({ phone, purpose: 'VERIFY_PHONE' }, { userId: a, roles: ['USER'], sessionId: 's', tokenId: 't' });
    await expect(auth.sendPhoneOtp({ phone, purpose: 'VERIFY_PHONE' }, { userId: b, roles: ['USER'], sessionId: 's', tokenId: 't' })).rejects.toMatchObject({
      statusCode: 429,
    });
    expect(textsTo(phone)).toHaveLength(1);
  });

  it('the same through the API: a second account is refused with 429 and no text is sent', async () => {
    const [a, b] = [await signUpByMail(), await signUpByMail()];
    const phone = randomPhone();
    const since = Date.now();
    expect((await call('POST', '/auth/otp/send', { token: a.accessToken, body: { phone, purpose: 'VERIFY_PHONE' } })).status).toBe(200);
    await waitForSms(phone, since);
    const second = await call('POST', '/auth/otp/send', { token: b.accessToken, body: { phone, purpose: 'VERIFY_PHONE' } });
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('an hourly cap per purpose and a daily cap per destination across purposes and accounts', async () => {
    let now = Date.parse('2026-11-23T00:30:00Z');
    const otp = createOtpService({ jwtSecret: 'x'.repeat(40), now: () => now });
    const destination = randomPhone();
    const send = (purpose: 'LOGIN' | 'VERIFY_PHONE') => otp.issue({ purpose, channel: 'sms', destination, userId: randomUUID() });
    let sent = 0;
    for (let hour = 0; hour < 2; hour += 1) {
      for (const purpose of ['LOGIN', 'VERIFY_PHONE'] as const) {
        for (let i = 0; i < 5; i += 1) {
          await send(purpose);
          sent += 1;
          now += 61_000;
        }
        await expect(send(purpose)).rejects.toMatchObject({ statusCode: 429 }); // sixth this hour
      }
      now += 3600_000;
    }
    expect(sent).toBe(20);
    await expect(send('LOGIN')).rejects.toThrow(/today/); // 20 a day, every purpose and account together
    now = Date.parse('2026-11-24T00:00:01Z');
    await expect(send('LOGIN')).resolves.toHaveProperty('code');
  });

  it('a phone verified by one account is refused to another (409), once the resend gap allows the other a code', async () => {
    const { auth, textsTo, advance } = setup();
    const owner = await signUpByMail();
    const other = await signUpByMail();
    const phone = randomPhone();
    const as = (id: string) => ({ userId: id, roles: ['USER' as const], sessionId: 's', tokenId: 't' });
    await auth.sendPhoneOtp({ phone, purpose: 'VERIFY_PHONE' }, as(owner.user.id));
    await auth.verifyPhoneOtp({ phone, code: codeIn(textsTo(phone)[0].text), purpose: 'VERIFY_PHONE' }, client, as(owner.user.id));
    advance(61_000);
    await auth.sendPhoneOtp({ phone, purpose: 'VERIFY_PHONE' }, as(other.user.id));
    await expect(
      auth.verifyPhoneOtp({ phone, code: codeIn(textsTo(phone)[1].text), purpose: 'VERIFY_PHONE' }, client, as(other.user.id)),
    ).rejects.toMatchObject({ statusCode: 409 });
  });
});

describe('RateLimit and RateLimit-Policy headers (draft-ietf-httpapi-ratelimit-headers)', () => {
  it('a limited route announces its policy and what is left, down to its 429 (with Retry-After no earlier than the window end)', async () => {
    // The API in-process with the limiter's clock in the test's hands: 100 s into auth-forgot's fixed 900 s window.
    const windowStart = Date.parse('2026-11-23T08:00:00Z'); // a multiple of 900 s
    let now = windowStart + 100_000;
    const config = parseConfig({ ...process.env, JWT_SECRET: localSecret('JWT_SECRET'), JWT_REFRESH_SECRET: localSecret('JWT_REFRESH_SECRET') });
    const server = await listen(buildApp({ config, rateLimiter: createRateLimiter(memoryRateLimitStore(), () => now, config.RATE_LIMITS) }).app);
    try {
      const forgot = () =>
        fetch(`${server.url}/api/v1/auth/password/forgot`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: uniqueEmail('ratelimit') }),
        });
      const remaining: Response[] = [];
      for (let i = 0; i < 10; i += 1) {
        remaining.push(await forgot());
        now += 5_000;
      }
      expect(remaining.map((res) => res.status)).toEqual(remaining.map(() => 200));
      expect(remaining.map((res) => res.headers.get('ratelimit-policy'))).toEqual(remaining.map(() => '"auth-forgot";q=10;w=900'));
      // r counts down; t is the seconds to the window end, as the clock moves.
      expect(remaining.map((res) => res.headers.get('ratelimit'))).toEqual(remaining.map((_, i) => `"auth-forgot";r=${9 - i};t=${800 - 5 * i}`));

      const refused = await forgot(); // 150 s into the window
      expect(refused.status).toBe(429);
      expect(refused.headers.get('ratelimit-policy')).toBe('"auth-forgot";q=10;w=900');
      expect([refused.headers.get('ratelimit'), refused.headers.get('retry-after')]).toEqual(['"auth-forgot";r=0;t=750', '750']);
      // The next window starts afresh.
      now = windowStart + 900_000;
      const next = await forgot();
      expect([next.status, next.headers.get('ratelimit')]).toEqual([200, '"auth-forgot";r=9;t=900']);
    } finally {
      await server.close();
    }
  });
});
