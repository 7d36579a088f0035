import { Timestamp, type Query } from 'firebase-admin/firestore';
import { INBOX, PRESENCE, REALTIME } from '../../src/modules/notifications/notifications.collections';
import { db } from '../../src/platform/core/firebase/firebase';
import { PUSH_OUTBOX } from '../../src/platform/kits/firestore/collections';
import type { Tokens } from './accounts';
import { call } from './api';

// The notifications module's test driver: a user's inbox (stored and as the app lists it), realtime events,
// the push outbox, presence in a room.

export type InboxFilter = { entityId?: string; kind?: string; event?: string };

/** The query of `userId`'s stored inbox items, narrowed by entity, kind or event. */
export function inboxQuery(userId: string, filter: InboxFilter = {}): Query {
  let query: Query = db().collection(INBOX).where('recipientId', '==', userId);
  for (const [field, value] of Object.entries(filter)) if (value !== undefined) query = query.where(field, '==', value);
  return query;
}

/** `userId`'s stored inbox items (the documents apps listen to). */
export const inboxOf = async (userId: string, filter: InboxFilter = {}) => (await inboxQuery(userId, filter).get()).docs.map((d) => d.data());

/** GET /notifications: the first 50 items as the app lists them. */
export const inboxPage = async (who: Tokens) =>
  (await call('GET', '/notifications?limit=50', { token: who.accessToken })).body.items as Array<{
    kind: string;
    entityId: string;
    event: string;
    title: string;
    body: string;
  }>;

/** `userId`'s realtime events. */
export const realtimeQuery = (userId: string) => db().collection(REALTIME).where('recipientId', '==', userId);
export const realtimeOf = async (userId: string) => (await realtimeQuery(userId).get()).docs.map((d) => d.data());

/** The push messages queued for one device token. */
export const outboxFor = async (token: string) => (await db().collection(PUSH_OUTBOX).where('token', '==', token).get()).docs.map((d) => d.data().message);

/** A device token of the length FCM issues, unique per call. */
export const fcmToken = (tag: string) => `fcm-${tag}-${Date.now()}-${'t'.repeat(40)}`;

/** `userId` has the room open (the heartbeat a chat or ride screen writes) until `expiresAtMs`. */
export const present = (roomId: string, userId: string, expiresAtMs: number) =>
  db()
    .collection(PRESENCE)
    .doc(roomId)
    .collection('members')
    .doc(userId)
    .set({ expiresAt: Timestamp.fromMillis(expiresAtMs) });
