import { createHash } from 'node:crypto';
import { db } from '../../platform/firebase/firebase';
import type { Preferences } from './notifications.model';

// Collections of the hub. Clients read their own inbox, realtime events and preferences, and write
// their own presence (firestore.rules); everything else goes through the API.
export const INBOX = 'app_notifications';
export const REALTIME = 'realtime_events';
export const PREFERENCES = 'notification_prefs';
export const PRESENCE = 'presence';
export const PUSH_TOKENS = 'push_tokens';

const fs = () => require('firebase-admin/firestore') as typeof import('firebase-admin/firestore');
const col = (name: string) => db().collection(name);
export const tokenDocId = (token: string) => createHash('sha256').update(token).digest('base64url');

export interface PushTokenRecord {
  userId: string;
  token: string;
  surface: 'CON' | 'PAR' | 'DRV';
  platform: 'android' | 'ios' | 'web';
  deviceId: string;
  sessionId: string;
  createdAt: number;
  updatedAt: number;
}

export const notificationsRepo = {
  /** false when the item already exists: a duplicate delivery of the same occurrence. */
  async createInbox(id: string, item: Record<string, unknown>, now: number): Promise<boolean> {
    try {
      await col(INBOX).doc(id).create({ ...item, createdAt: fs().Timestamp.fromMillis(now) });
      return true;
    } catch (err) {
      if ((err as { code?: number }).code === 6) return false; // ALREADY_EXISTS
      throw err;
    }
  },

  async createRealtime(id: string, event: Record<string, unknown>, ttlMs: number, now: number): Promise<boolean> {
    try {
      await col(REALTIME).doc(id).create({ ...event, createdAt: fs().Timestamp.fromMillis(now), expireAt: fs().Timestamp.fromMillis(now + ttlMs) });
      return true;
    } catch (err) {
      if ((err as { code?: number }).code === 6) return false;
      throw err;
    }
  },

  // Bulk inbox items (broadcasts): batches of 500 create()s committed together. A batch that meets an
  // existing item (a retried broadcast) is redone item by item, leaving existing ones alone.
  async createInboxMany(items: Array<{ id: string; data: Record<string, unknown> }>, now: number): Promise<number> {
    const createdAt = fs().Timestamp.fromMillis(now);
    const chunks: Array<typeof items> = [];
    for (let i = 0; i < items.length; i += 500) chunks.push(items.slice(i, i + 500));
    const counts = await Promise.all(
      chunks.map(async (chunk) => {
        const batch = db().batch();
        for (const item of chunk) batch.create(col(INBOX).doc(item.id), { ...item.data, createdAt });
        try {
          await batch.commit();
          return chunk.length;
        } catch (err) {
          if ((err as { code?: number }).code !== 6) throw err;
          const created = await Promise.all(chunk.map((item) => this.createInbox(item.id, item.data, now)));
          return created.filter(Boolean).length;
        }
      }),
    );
    return counts.reduce((a, b) => a + b, 0);
  },

  async preferences(userId: string): Promise<Partial<Preferences> | undefined> {
    return (await col(PREFERENCES).doc(userId).get()).data() as Partial<Preferences> | undefined;
  },
  async savePreferences(userId: string, prefs: Preferences, now: number): Promise<void> {
    await col(PREFERENCES).doc(userId).set({ ...prefs, updatedAt: now });
  },

  // `presence/{roomId}/members/{userId}` with `expiresAt` renewed by the client's heartbeat.
  async isPresent(roomId: string, userId: string, now: number): Promise<boolean> {
    const snap = await col(PRESENCE).doc(roomId).collection('members').doc(userId).get();
    const expiresAt = snap.get('expiresAt') as FirebaseFirestore.Timestamp | undefined;
    return expiresAt !== undefined && expiresAt.toMillis() > now;
  },

  async tokensOf(userId: string, surface: string): Promise<PushTokenRecord[]> {
    const snap = await col(PUSH_TOKENS).where('userId', '==', userId).where('surface', '==', surface).get();
    return snap.docs.map((d) => d.data() as PushTokenRecord);
  },
  async saveToken(record: PushTokenRecord): Promise<'created' | 'updated'> {
    const ref = col(PUSH_TOKENS).doc(tokenDocId(record.token));
    return db().runTransaction(async (tx) => {
      const existing = await tx.get(ref);
      tx.set(ref, existing.exists ? { ...record, createdAt: existing.get('createdAt') as number } : record);
      return existing.exists ? 'updated' : 'created';
    });
  },
  async tokenOwner(token: string): Promise<string | undefined> {
    return (await col(PUSH_TOKENS).doc(tokenDocId(token)).get()).get('userId') as string | undefined;
  },
  async deleteTokens(tokens: string[]): Promise<void> {
    const batch = db().batch();
    for (const token of tokens) batch.delete(col(PUSH_TOKENS).doc(tokenDocId(token)));
    if (tokens.length > 0) await batch.commit();
  },
  async deleteTokensOfSessions(sessionIds: string[]): Promise<number> {
    let removed = 0;
    for (let i = 0; i < sessionIds.length; i += 30) {
      const snap = await col(PUSH_TOKENS).where('sessionId', 'in', sessionIds.slice(i, i + 30)).get();
      const batch = db().batch();
      snap.docs.forEach((d) => batch.delete(d.ref));
      if (!snap.empty) await batch.commit();
      removed += snap.size;
    }
    return removed;
  },

  // Every push token of a surface, in pages (broadcasts send without one query per user).
  async *tokensOfSurface(surface: string, pageSize = 500): AsyncGenerator<PushTokenRecord[]> {
    let last: FirebaseFirestore.QueryDocumentSnapshot | undefined;
    for (;;) {
      let query = col(PUSH_TOKENS).where('surface', '==', surface).orderBy('__name__').limit(pageSize);
      if (last) query = query.startAfter(last);
      const snap = await query.get();
      if (snap.empty) return;
      last = snap.docs[snap.size - 1];
      yield snap.docs.map((d) => d.data() as PushTokenRecord);
      if (snap.size < pageSize) return;
    }
  },
  // Users whose preferences turn a channel's push off (usually few): one query each way.
  async optedOut(channel: string): Promise<Set<string>> {
    const [master, perChannel] = await Promise.all([
      col(PREFERENCES).where('push', '==', false).get(),
      col(PREFERENCES).where(`channels.${channel}`, '==', false).get(),
    ]);
    return new Set([...master.docs, ...perChannel.docs].map((d) => d.id));
  },

  async inbox(userId: string, opts: { limit: number; cursor?: string; unreadOnly?: boolean }) {
    let query = col(INBOX).where('recipientId', '==', userId);
    if (opts.unreadOnly) query = query.where('read', '==', false);
    query = query.orderBy('createdAt', 'desc').orderBy('__name__', 'desc');
    if (opts.cursor) {
      const after = await col(INBOX).doc(opts.cursor).get();
      if (after.exists && after.get('recipientId') === userId) query = query.startAfter(after);
    }
    const snap = await query.limit(opts.limit).get();
    return { docs: snap.docs.map((d) => ({ ...d.data(), id: d.id })), nextCursor: snap.size === opts.limit ? snap.docs[snap.size - 1].id : null };
  },
  async unreadCount(userId: string): Promise<number> {
    return (await col(INBOX).where('recipientId', '==', userId).where('read', '==', false).count().get()).data().count;
  },
  // Marks the caller's own items; ids of others are ignored.
  async markRead(userId: string, ids: string[] | 'all', read: boolean, now: number): Promise<number> {
    if (ids !== 'all' && ids.length === 0) return 0;
    const refs =
      ids === 'all'
        ? (await col(INBOX).where('recipientId', '==', userId).where('read', '==', !read).get()).docs.map((d) => d.ref)
        : (await db().getAll(...ids.map((id) => col(INBOX).doc(id)))).filter((d) => d.exists && d.get('recipientId') === userId).map((d) => d.ref);
    const writer = db().bulkWriter();
    for (const ref of refs) void writer.update(ref, { read, readAt: read ? fs().Timestamp.fromMillis(now) : null });
    await writer.close();
    return refs.length;
  },
};
