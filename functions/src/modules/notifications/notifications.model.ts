import * as z from 'zod/mini';
import type { EventPolicy, PreferenceChannel } from './events';
import { INBOX_KINDS, PREFERENCE_CHANNELS, REALTIME_EVENTS, SURFACES } from './events';
import { NOTIFICATION_PAYLOAD_TEXT, notificationPayloadShape } from './notifications.payload';
import { describe, lazySchema, nullableTimestamp, timestamp, type RecordOf } from '../../platform/kits/firestore/documents';

export {
  BROADCAST_PAGE_SIZE,
  BROADCAST_QUEUE,
  BROADCASTS,
  INBOX,
  PREFERENCES,
  PRESENCE,
  PUSH_DEVICES,
  PUSH_TOKENS,
  REALTIME,
} from './notifications.collections';

// `notification_prefs/{userId}`: the master push switch, the per-channel split under it, muted conversations.
export const preferencesDocument = lazySchema(() =>
  describe(
    z.object({
      push: describe(z.boolean(), 'The master push switch.'),
      channels: describe(z.record(z.enum(PREFERENCE_CHANNELS), z.boolean()), 'Push per channel, under the master switch (calls and security ignore both).'),
      muted: describe(z.record(z.string(), z.literal(true)), 'Muted conversations (ids as keys): never pushed.'),
      updatedAt: timestamp('last change.'),
    }),
    'A read-only mirror of the notification preferences (changed through PATCH /notifications/preferences and the mutes routes).',
  ),
);
export type Preferences = Omit<RecordOf<typeof preferencesDocument>, 'updatedAt'>;

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

/** `grouped`: an aggregated item grew while unread (its first push stands for the group). */
export type PushSkip = 'policy' | 'preferences' | 'muted' | 'present' | 'grouped';

// The spec's step 4: push when the policy allows it AND (preferences on OR the policy forces it) AND the
// conversation is not muted AND (chat, ride) the user is not in the room. Forced pushes (calls, security)
// ignore preferences, mute and presence.
export function pushDecision(
  policy: EventPolicy,
  prefs: Preferences,
  ctx: { muted: boolean; present: boolean },
): { send: true } | { send: false; reason: PushSkip } {
  if (policy.push === 'never') return { send: false, reason: 'policy' };
  if (policy.push === 'always') return { send: true };
  const channelOn = policy.preference === null || prefs.channels[policy.preference];
  if (!prefs.push || !channelOn) return { send: false, reason: 'preferences' };
  if (ctx.muted) return { send: false, reason: 'muted' };
  if (ctx.present) return { send: false, reason: 'present' };
  return { send: true };
}

// The data payload of push and realtime messages: exactly the spec's fields (defined in notifications.payload).
const notificationPayload = () =>
  describe(
    z
      .object(notificationPayloadShape(z, describe(z.enum(SURFACES), 'The app it is for: CON (consumer), PAR (partner), DRV (driver).')))
      .check(z.meta({ title: 'NotificationPayload' })),
    NOTIFICATION_PAYLOAD_TEXT,
  );
export type NotificationPayload = z.output<ReturnType<typeof notificationPayload>>;

/** `app_notifications/{notificationId}`: an inbox item (the document id is the notification id). */
export const inboxDocument = lazySchema(() =>
  describe(
    z.object({
      recipientId: describe(z.string(), 'The recipient: the only one who may read the item (firestore.rules); lists filter on it.'),
      surface: describe(z.enum(SURFACES), 'The app the item is for.'),
      kind: describe(z.enum(INBOX_KINDS), 'The inbox kind.'),
      event: describe(z.string(), 'The event that made the item.'),
      entityId: describe(z.string(), 'The ride, call, conversation… it is about.'),
      title: describe(z.string(), 'The title (a push, when one is sent, shows the same).'),
      body: describe(z.string(), 'The text (a push, when one is sent, shows the same).'),
      data: notificationPayload(),
      read: describe(z.boolean(), 'Read (PATCH /notifications).'),
      readAt: nullableTimestamp('when it was marked read.'),
      createdAt: timestamp('when it was delivered (an aggregated item: when its latest actor joined): lists sort on it.'),
      group: z.optional(
        describe(
          z.object({
            actors: describe(z.array(z.string()), 'The people of the group, as keyed hashes (the latest 100): someone counted already.'),
            acts: describe(z.array(z.string()), 'The acts counted, as keyed hashes (the latest 100): a redelivered one changes nothing.'),
            names: describe(z.array(z.string()), 'The newest actors’ names, newest first (up to 2).'),
            count: describe(z.number(), 'How many the text counts: the event’s total when its sender counts one, else the people since it was last read.'),
          }),
          'An aggregated item (one per event, entity and recipient): the people it gathers ("Lan and 12 others liked your post").',
        ),
      ),
    }),
    'An inbox item.',
  ),
);

// The spec's WebSocket events, as realtime documents: each type with its own `data`.
const REALTIME_DATA: Record<(typeof REALTIME_EVENTS)[number], () => z.ZodMiniObject> = {
  'message:new': () =>
    z
      .object({
        conversationId: z.string(),
        messageId: z.string(),
        senderId: z.string(),
        type: describe(z.string(), 'The message type (TEXT, AUDIO, IMAGE, LOCATION, SYSTEM).'),
      })
      .check(z.meta({ title: 'MessageNewData' })),
  'call:ring': () =>
    z
      .object({ callId: z.string(), callerId: z.string(), type: z.enum(['audio', 'video']), ringExpiresAt: timestamp('when the ring ends unanswered.') })
      .check(z.meta({ title: 'CallRingData' })),
  'call:ended': () =>
    z
      .object({ callId: z.string(), status: describe(z.string(), "The call's status (MISSED, DECLINED)."), callerId: z.string() })
      .check(z.meta({ title: 'CallEndedData' })),
  'ride:status': () =>
    z
      .object({ rideId: z.string(), status: describe(z.string(), "The ride's new status."), driverId: z.nullable(z.string()) })
      .check(z.meta({ title: 'RideStatusData' })),
  'ride:location': () =>
    z
      .object({
        rideId: z.string(),
        driverId: z.string(),
        lat: z.number(),
        lng: z.number(),
        heading: describe(z.nullable(z.number()), 'Degrees from north.'),
        speedKmh: z.nullable(z.number()),
        at: timestamp("when the driver's app took the position."),
      })
      .check(z.meta({ title: 'RideLocationData' })),
  'courier:location': () =>
    z
      .object({
        jobId: describe(z.string(), "The order, parcel delivery or school trip (the event's entity)."),
        kind: describe(z.enum(['ORDER', 'DELIVERY', 'SCHOOL_TRIP']), 'What the job is.'),
        driverId: z.string(),
        lat: z.number(),
        lng: z.number(),
        heading: describe(z.nullable(z.number()), 'Degrees from north.'),
        speedKmh: z.nullable(z.number()),
        at: timestamp("when the driver's app took the position."),
      })
      .check(z.meta({ title: 'CourierLocationData' })),
};

/** `realtime_events/{id}`: one realtime event for one recipient (expires after a day, telemetry after 5 minutes). */
export const realtimeDocument = lazySchema(() => {
  const [first, ...rest] = REALTIME_EVENTS.map((type) =>
    z.object({
      recipientId: describe(z.string(), 'The recipient: the only one who may read the event (firestore.rules); listeners filter on it.'),
      type: describe(z.literal(type), "The spec's WebSocket event."),
      payload: notificationPayload(),
      data: describe(REALTIME_DATA[type](), `The ${type} event's own fields.`),
      createdAt: timestamp('when it was sent: listeners order on it.'),
      expireAt: timestamp("when Firestore's TTL policy deletes it."),
    }),
  );
  return describe(z.discriminatedUnion('type', [first, ...rest]), "A realtime event (the spec's WebSocket events): `data` depends on `type`.");
});

/** `presence/{roomId}/members/{userId}`: the heartbeat a client writes while a chat or ride screen is open. */
export const presenceDocument = lazySchema(() =>
  describe(
    z.object({
      expiresAt: timestamp('until when the member counts as present: at most 2 minutes after request.time (firestore.rules).'),
      updatedAt: describe(
        z.optional(timestamp('when the client wrote the heartbeat.')),
        'Firestore Timestamp (optional): when the client wrote the heartbeat.',
      ),
    }),
    'Presence in a room (`chat_<conversationId>`, `ride_<rideId>`): while fresh, the hub skips chat and ride push to that member.',
  ),
);

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
