import { policyFor } from '../../../src/modules/notifications/events';
import '../../../src/modules/chat/chat.events';
import '../../../src/modules/auth/auth.events';
import '../../../src/modules/notifications/notifications.events';
import '../../../src/modules/social/social.events';
import {
  buildPushMessage,
  DEFAULT_PREFERENCES,
  isDeadToken,
  pushDecision,
  toFcmData,
  withDefaults,
  type NotificationPayload,
} from '../../../src/modules/notifications/notifications.model';
import '../../../src/modules/rides/rides.events';
import '../../../src/modules/driver/driver.events';

const payload = (event: string): NotificationPayload => ({
  event,
  kind: 'RIDE',
  notificationId: 'n1',
  entityId: 'r1',
  sfx: 'ride_driver_assigned',
  deepLink: { tab: 'MapTab', screen: 'RideDetail', params: { id: 'r1' } },
  surface: 'CON',
});

describe('push decision (spec step 4)', () => {
  const prefs = (over: Partial<typeof DEFAULT_PREFERENCES> = {}) => ({ ...withDefaults(undefined), ...over });
  const chat = policyFor('chat.message')!;
  const call = policyFor('call.incoming')!;
  const security = policyFor('security.device')!;
  const broadcast = policyFor('admin.broadcast')!;
  const location = policyFor('ride:location')!;

  it.each([
    ['allowed, all on', chat, prefs(), { muted: false, present: false }, { send: true }],
    ['master switch off', chat, prefs({ push: false }), { muted: false, present: false }, { send: false, reason: 'preferences' }],
    [
      'chat channel off',
      chat,
      prefs({ channels: { ...DEFAULT_PREFERENCES.channels, chat: false } }),
      { muted: false, present: false },
      { send: false, reason: 'preferences' },
    ],
    [
      'promo off, chat still on',
      chat,
      prefs({ channels: { ...DEFAULT_PREFERENCES.channels, promo: false } }),
      { muted: false, present: false },
      { send: true },
    ],
    ['muted conversation', chat, prefs(), { muted: true, present: false }, { send: false, reason: 'muted' }],
    ['present in the room', chat, prefs(), { muted: false, present: true }, { send: false, reason: 'present' }],
    ['call with everything off', call, prefs({ push: false }), { muted: true, present: true }, { send: true }],
    ['security with everything off', security, prefs({ push: false }), { muted: false, present: false }, { send: true }],
    [
      'broadcast with promo off',
      broadcast,
      prefs({ channels: { ...DEFAULT_PREFERENCES.channels, promo: false } }),
      { muted: false, present: false },
      { send: false, reason: 'preferences' },
    ],
    ['telemetry', location, prefs(), { muted: false, present: false }, { send: false, reason: 'policy' }],
  ] as const)('%s', (_label, policy, p, ctx, expected) => {
    expect(pushDecision(policy, p, ctx)).toEqual(expected);
  });
});

describe('push messages', () => {
  const now = Date.parse('2026-11-22T00:00:00Z');
  it('FCM data carries exactly the spec fields, all strings', () => {
    const data = toFcmData(payload('ride.matched'));
    expect(Object.keys(data).sort()).toEqual(['deepLink', 'entityId', 'event', 'kind', 'notificationId', 'sfx', 'surface']);
    expect(Object.values(data).every((v) => typeof v === 'string')).toBe(true);
    expect(JSON.parse(data.deepLink)).toEqual({ tab: 'MapTab', screen: 'RideDetail', params: { id: 'r1' } });
  });

  it('Android: channel, priority high for calls, short TTL for rings, OS default sound, collapse on status', () => {
    const ring = buildPushMessage({
      token: 't',
      platform: 'android',
      policy: policyFor('call.incoming')!,
      payload: payload('call.incoming'),
      title: 'Call',
      body: 'Lan',
      now,
    });
    expect(ring.android).toMatchObject({ priority: 'high', ttl: 30_000, collapseKey: 'call:r1', notification: { channelId: 'app-calls', sound: 'default' } });
    const ride = buildPushMessage({
      token: 't',
      platform: 'android',
      policy: policyFor('ride.matched')!,
      payload: payload('ride.matched'),
      title: 'Driver',
      body: 'on the way',
      now,
    });
    expect(ride.android).toMatchObject({ priority: 'normal', collapseKey: 'ride:r1', notification: { channelId: 'app-rides' } });
    const chat = buildPushMessage({
      token: 't',
      platform: 'android',
      policy: policyFor('chat.message')!,
      payload: payload('chat.message'),
      title: 'Lan',
      body: 'hi',
      now,
    });
    expect(chat.android?.collapseKey).toBeUndefined();
  });

  it('iOS: APNs priority 10, expiration from the TTL, default sound, collapse id', () => {
    const msg = buildPushMessage({
      token: 't',
      platform: 'ios',
      policy: policyFor('call.incoming')!,
      payload: payload('call.incoming'),
      title: 'Call',
      body: 'Lan',
      now,
    });
    expect(msg.apns).toMatchObject({
      headers: { 'apns-priority': '10', 'apns-expiration': String(now / 1000 + 30), 'apns-collapse-id': 'call:r1' },
      payload: { aps: { sound: 'default', 'interruption-level': 'time-sensitive' } },
    });
  });

  it('deletes tokens only for the two dead-token codes', () => {
    expect(isDeadToken('messaging/registration-token-not-registered')).toBe(true);
    expect(isDeadToken('messaging/invalid-registration-token')).toBe(true);
    for (const code of ['messaging/internal-error', 'messaging/server-unavailable', 'messaging/quota-exceeded', 'messaging/invalid-argument', undefined]) {
      expect(isDeadToken(code)).toBe(false);
    }
  });
});
