import { randomUUID } from 'node:crypto';
import { createOtpService, type OtpTarget } from '../../../src/modules/auth/otp.service';
import { requireEmulators } from '../../helpers/emulators';

// The OTP service on the Firestore emulator with an injected clock.
beforeAll(requireEmulators);

function setup(devCode?: string) {
  let now = Date.parse('2026-11-22T10:00:00Z');
  const otp = createOtpService({ jwtSecret: 'x'.repeat(40), devCode, now: () => now });
  const target = (over: Partial<OtpTarget> = {}): OtpTarget => ({
    purpose: 'LOGIN',
    channel: 'email',
    destination: `${randomUUID()}@example.com`,
    userId: randomUUID(),
    ...over,
  });
  return { otp, target, advance: (ms: number) => (now += ms) };
}

describe('OTP service', () => {
  it('expires a code after 10 minutes', async () => {
    const { otp, target, advance } = setup();
    const t = target();
    const { code } = await otp.issue(t);
    advance(10 * 60_000 + 1);
    await expect(otp.verify(t, code)).rejects.toMatchObject({ statusCode: 400 });
  });

  it('accepts a code just before expiry, once', async () => {
    const { otp, target, advance } = setup();
    const t = target();
    const { code } = await otp.issue(t);
    advance(10 * 60_000 - 1000);
    await expect(otp.verify(t, code)).resolves.toHaveProperty('challengeId');
    await expect(otp.verify(t, code)).rejects.toMatchObject({ statusCode: 400 });
  });

  it('allows a resend after 60 s and caps sends at 5 per hour; the new code replaces the old', async () => {
    const { otp, target, advance } = setup();
    const t = target();
    const first = await otp.issue(t);
    await expect(otp.issue(t)).rejects.toMatchObject({ statusCode: 429 });
    advance(60_000);
    const second = await otp.issue(t);
    await expect(otp.verify(t, first.code === second.code ? '______' : first.code)).rejects.toMatchObject({ statusCode: 400 });
    for (let i = 0; i < 3; i += 1) {
      advance(60_000);
      await otp.issue(t);
    }
    advance(60_000);
    await expect(otp.issue(t)).rejects.toMatchObject({ statusCode: 429 });
    advance(60 * 60_000);
    await expect(otp.issue(t)).resolves.toHaveProperty('code');
  });

  it('kills a code after 5 wrong tries', async () => {
    const { otp, target } = setup();
    const t = target();
    const { code } = await otp.issue(t);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i += 1) await expect(otp.verify(t, wrong)).rejects.toMatchObject({ statusCode: 400 });
    await expect(otp.verify(t, code)).rejects.toMatchObject({ statusCode: 400 });
  });

  it('accepts OTP_DEV_CODE for a live challenge, never for an unknown destination', async () => {
    const { otp, target } = setup('424242');
    const known = target();
    await otp.issue(known);
    await expect(otp.verify(known, '424242')).resolves.toHaveProperty('challengeId');
    const unknown = target({ userId: null });
    await otp.issue(unknown);
    await expect(otp.verify(unknown, '424242')).rejects.toMatchObject({ statusCode: 400 });
  });

  it('binds the code to its purpose', async () => {
    const { otp, target } = setup();
    const t = target();
    const { code } = await otp.issue(t);
    await expect(otp.verify({ ...t, purpose: 'PASSWORD_RESET' }, code)).rejects.toMatchObject({ statusCode: 400 });
    await expect(otp.verify(t, code)).resolves.toHaveProperty('challengeId');
  });
});
