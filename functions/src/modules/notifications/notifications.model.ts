import type { EventPolicy, PreferenceChannel, Surface } from './events';
import { PREFERENCE_CHANNELS } from './events';
import { documentTaskQueue } from '../../platform/tasks/tasks';

// Firestore layout: the inbox and realtime events apps listen to, preferences, presence, push tokens and devices.
export const INBOX = 'app_notifications';
export const REALTIME = 'realtime_events';
export const PREFERENCES = 'notification_prefs';
export const PRESENCE = 'presence';
export const PUSH_TOKENS = 'push_tokens';
export const PUSH_DEVICES = 'push_devices';

// `broadcasts/{id}`: admin.broadcast jobs (progress, cursor, lease).
export const BROADCASTS = 'broadcasts';

// Accounts per page of a broadcast's audience (read in id order, delivered as one dispatch).
export const BROADCAST_PAGE_SIZE = 500;

// The queue of the `broadcastJob` task function (admin.broadcast delivery).
export const BROADCAST_QUEUE = documentTaskQueue('broadcastJob', 'broadcastId');

// `notification_prefs/{userId}`: the master push switch, the per-channel split under it, muted conversations.
export interface Preferences {
  push: boolean;
  channels: Record<PreferenceChannel, boolean>;
  muted: Record<string, true>;
}

export const DEFAULT_PREFERENCES: Preferences = {
  push: true,
  channels: Object.fromEntries(PREFERENCE_CHANNELS.map((c) => [c, true])) as Record<PreferenceChannel, boolean>,
  muted: {},
};

export function withDefaults(stored: Partial<Preferences> | undefined): Preferences {
  return {
    push: stored?.push ?? true,
    channels: { ...DEFAULT_PREFERENCES.channels, ...(stored?.channels ?? {}) },
    muted: { ...(stored?.muted ?? {}) },
  };
}

export type PushSkip = 'policy' | 'preferences' | 'muted' | 'present';

// The spec's step 4: push when the policy allows it AND (preferences on OR the policy forces it) AND the
// conversation is not muted AND (chat, ride) the user is not in the room. Forced pushes (calls, security)
// ignore preferences, mute and presence.
export function pushDecision(policy: EventPolicy, prefs: Preferences, ctx: { muted: boolean; present: boolean }): { send: true } | { send: false; reason: PushSkip } {
  if (policy.push === 'never') return { send: false, reason: 'policy' };
  if (policy.push === 'always') return { send: true };
  const channelOn = policy.preference === null || prefs.channels[policy.preference];
  if (!prefs.push || !channelOn) return { send: false, reason: 'preferences' };
  if (ctx.muted) return { send: false, reason: 'muted' };
  if (ctx.present) return { send: false, reason: 'present' };
  return { send: true };
}

// The data payload of push and realtime messages: exactly the spec's fields.
export interface NotificationPayload {
  event: string;
  kind: string;
  notificationId: string;
  entityId: string;
  sfx: string;
  deepLink: { tab: string; screen: string; params: Record<string, string> };
  surface: Surface;
}

// FCM data values must be strings.
export function toFcmData(payload: NotificationPayload): Record<string, string> {
  return {
    event: payload.event,
    kind: payload.kind,
    notificationId: payload.notificationId,
    entityId: payload.entityId,
    sfx: payload.sfx,
    deepLink: JSON.stringify(payload.deepLink),
    surface: payload.surface,
  };
}

export type Platform = 'android' | 'ios' | 'web';

// One FCM message per device, shaped for its platform: channel and priority on Android, APNs priority
// 10 for alerts and calls, short TTL for rings, the OS default sound, collapse when a newer status replaces.
export function buildPushMessage(args: {
  token: string;
  platform: Platform;
  policy: EventPolicy;
  payload: NotificationPayload;
  title: string;
  body: string;
  now: number;
}) {
  const { policy, payload } = args;
  const high = policy.push === 'always';
  const collapseKey = policy.collapse ? `${payload.event.split('.')[0]}:${payload.entityId}` : undefined;
  const data = toFcmData(payload);
  const notification = { title: args.title, body: args.body };
  if (args.platform === 'android') {
    return {
      token: args.token,
      data,
      android: {
        priority: high ? ('high' as const) : ('normal' as const),
        ttl: policy.ttlSec * 1000,
        ...(collapseKey ? { collapseKey } : {}),
        notification: { ...notification, channelId: policy.androidChannel ?? 'app-chat', sound: 'default', ...(collapseKey ? { tag: collapseKey } : {}) },
      },
    };
  }
  if (args.platform === 'ios') {
    return {
      token: args.token,
      data,
      apns: {
        headers: {
          'apns-priority': '10',
          'apns-push-type': 'alert',
          'apns-expiration': String(Math.floor(args.now / 1000) + policy.ttlSec),
          ...(collapseKey ? { 'apns-collapse-id': collapseKey } : {}),
        },
        payload: { aps: { alert: notification, sound: 'default', ...(high ? { 'interruption-level': 'time-sensitive' } : {}) } },
      },
    };
  }
  return { token: args.token, data, webpush: { headers: { Urgency: high ? 'high' : 'normal', TTL: String(policy.ttlSec) }, notification } };
}

export type PushMessage = ReturnType<typeof buildPushMessage>;

// Only these two errors mean the token is dead; anything else is logged and retried later.
export const DEAD_TOKEN_CODES = ['messaging/registration-token-not-registered', 'messaging/invalid-registration-token'] as const;
export function isDeadToken(code: string | undefined): boolean {
  return code !== undefined && (DEAD_TOKEN_CODES as readonly string[]).includes(code);
}
