import { createHash } from 'node:crypto';
import { destinationKey } from '../../src/modules/auth/otp.service';
import { notificationId } from '../../src/modules/notifications/hub';
import { tokenDocId } from '../../src/modules/notifications/notifications.repo';
import { operationIdFor } from '../../src/modules/wallet/ledger.model';
import { subjectKey } from '../../src/platform/core/ratelimit/rate-limit';
import { recordId } from '../../src/platform/kits/idempotency/idempotency';
import { stableId } from '../../src/platform/kits/ids/stable-id';

// The id formulas moved onto stableId give the ids the hand-written hashes gave (documents already stored under
// them are found again by a retry after the deploy). Each `before` is the formula as it was written.
const sha = (text: string, encoding: 'base64url' | 'hex' = 'base64url') => createHash('sha256').update(text).digest(encoding);
const keys = ['k1', 'Idempotency-Key with spaces', 'ключ/é', ''];

describe('ids moved onto stableId are unchanged', () => {
  it.each(keys)('auth: the OTP destination key (%p)', (key) => {
    expect(destinationKey('email', `${key}@example.com`)).toBe(sha(`email:${key}@example.com`).slice(0, 32));
    expect(destinationKey('sms', `+84${key}`)).toBe(sha(`sms:+84${key}`).slice(0, 32));
  });

  it.each(keys)('wallet: the operation id of an idempotency key (%p)', (key) => {
    expect(operationIdFor('p2p', 'u1', key)).toBe(sha(`p2p\u0000u1\u0000${key}`).slice(0, 27));
  });

  it.each(keys)('notifications: the notification id, with and without an occurrence (%p)', (key) => {
    expect(notificationId('ride.matched', `R-${key}`, 'u1')).toBe(sha(`ride.matched\u0000R-${key}\u0000u1\u0000`).slice(0, 32));
    expect(notificationId('chat.message', 'c1', 'u2', key)).toBe(sha(`chat.message\u0000c1\u0000u2\u0000${key}`).slice(0, 32));
  });

  it.each(keys)('notifications: the push token document id is the whole hash (%p)', (key) => {
    expect(tokenDocId(`fcm-${key}`)).toBe(sha(`fcm-${key}`));
  });

  it.each(keys)('notifications: the broadcast id of an Idempotency-Key (%p)', (key) => {
    expect(stableId({ caller: 'admin1', key, prefix: 'bc-', length: 28 })).toBe(`bc-${sha(`admin1\u0000${key}`).slice(0, 28)}`);
  });

  it.each(keys)('media: the retry base of an upload is hex (letters and digits name the stored object) (%p)', (key) => {
    const base = stableId({ caller: 'owner1', key: ['upload-audio', key], encoding: 'hex' });
    expect(base).toBe(sha(`owner1\u0000upload-audio\u0000${key}`, 'hex').slice(0, 24));
    expect(`${base}00`).toMatch(/^[A-Za-z0-9]+$/);
  });

  it.each(keys)('idempotency: the stored record of a key is the whole hash of caller, operation and key (%p)', (key) => {
    expect(recordId('u1', 'post /wallet/transfers', key)).toBe(sha(`u1\u0000post /wallet/transfers\u0000${key}`));
  });

  it.each(keys)('rate limits: the subject key of a bucket (%p)', (key) => {
    expect(subjectKey(`otp-send:ip:${key}`)).toBe(sha(`otp-send:ip:${key}`).slice(0, 32));
  });

  it('idempotency records and rate-limit buckets keep the ids stored before the move (known values)', () => {
    expect(recordId('u1', 'post /wallet/transfers', 'Idempotency-Key with spaces')).toBe('J7pYS9hyRDZ-sLv_xPnxPuGqE6yRbaZKHI4_5HIcp_g');
    expect(subjectKey('otp-send:ip:203.0.113.7')).toBe('pamj3cPy2KDmPFjzT2_DpXfrxjb8SCK7');
  });

  it('hex ids may use the whole hash, and no more', () => {
    expect(stableId({ key: 'k', encoding: 'hex', length: 64 })).toBe(sha('k', 'hex'));
    expect(() => stableId({ key: 'k', encoding: 'hex', length: 65 })).toThrow(/16\.\.64/);
    expect(() => stableId({ key: 'k', length: 44 })).toThrow(/16\.\.43/);
  });
});
