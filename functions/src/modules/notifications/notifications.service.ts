import { iso, isoOrNull } from '../../platform/kits/time/time';
import type { AuthContext } from '../../platform/core/auth/access-token';
import { NotFoundError } from '../../platform/core/errors/app-error';
import { authAdmin } from '../../platform/core/firebase/firebase';
import type { Surface } from './events';
import type { Hub } from './hub';
import { broadcastView, createBroadcast, getBroadcast } from './broadcast.job';
import type { BroadcastScheduler } from './notifications.wiring';
import { withDefaults } from './notifications.model';
import { notificationsRepo } from './notifications.repo';

// Inbox documents keep Timestamps (apps read them with listeners); the API answers ISO strings.
const timeOf = (t: unknown) => (t && typeof (t as { toMillis?: unknown }).toMillis === 'function' ? isoOrNull(t as { toMillis(): number }) : null);

function inboxView(doc: Record<string, unknown>) {
  return { ...(doc as object), readAt: timeOf(doc.readAt), createdAt: timeOf(doc.createdAt) ?? iso(0) } as Record<string, unknown>;
}

function preferencesView(prefs: ReturnType<typeof withDefaults>) {
  return { push: prefs.push, channels: prefs.channels, mutedConversations: Object.keys(prefs.muted).sort() };
}

export function createNotificationsService(deps: { hub: Hub; broadcasts: BroadcastScheduler; now?: () => number }) {
  const now = deps.now ?? Date.now;
  const prefsOf = async (userId: string) => withDefaults(await notificationsRepo.preferences(userId));
  return {
    async inbox(userId: string, query: { limit: number; cursor?: string; unreadOnly?: boolean }) {
      const [page, unreadCount] = await Promise.all([notificationsRepo.inbox(userId, query), notificationsRepo.unreadCount(userId)]);
      return { items: page.docs.map(inboxView), unreadCount, nextCursor: page.nextCursor };
    },

    async markRead(userId: string, body: { ids?: string[]; all?: true; read: boolean }) {
      const updated = await notificationsRepo.markRead(userId, body.all ? 'all' : (body.ids ?? []), body.read, now());
      return { updated, unreadCount: await notificationsRepo.unreadCount(userId) };
    },

    async preferences(userId: string) {
      return preferencesView(await prefsOf(userId));
    },

    async updatePreferences(userId: string, patch: { push?: boolean; channels?: Partial<Record<string, boolean>> }) {
      const current = await prefsOf(userId);
      const next = { ...current, push: patch.push ?? current.push, channels: { ...current.channels, ...(patch.channels as object) } };
      await notificationsRepo.savePreferences(userId, next, now());
      return preferencesView(next);
    },

    async setMuted(userId: string, conversationId: string, muted: boolean) {
      const current = await prefsOf(userId);
      const next = { ...current, muted: { ...current.muted } };
      if (muted) next.muted[conversationId] = true;
      else delete next.muted[conversationId];
      await notificationsRepo.savePreferences(userId, next, now());
      return preferencesView(next);
    },

    // Many devices per user; the same token registered again (even by another account) is updated.
    async registerToken(auth: AuthContext, body: { token: string; surface: Surface; platform: 'android' | 'ios' | 'web'; deviceId: string }) {
      const t = now();
      const status = await notificationsRepo.saveToken({ ...body, userId: auth.userId, sessionId: auth.sessionId, createdAt: t, updatedAt: t });
      return { status };
    },

    async removeToken(auth: AuthContext, token: string) {
      if ((await notificationsRepo.tokenOwner(token)) !== auth.userId) throw new NotFoundError('Push token not found');
      await notificationsRepo.deleteTokens([token]);
      return { deleted: true as const };
    },

    // For Firestore listeners: the app signs in to Firebase with this token (uid = account id, roles and the
    // API session id as claims). firestore.rules admit a client only while that session lives.
    async firebaseToken(auth: AuthContext) {
      const token = await authAdmin().createCustomToken(auth.userId, { roles: auth.roles, sid: auth.sessionId });
      return { token, uid: auth.userId, expiresInSec: 3600 };
    },

    // Recorded (once per Idempotency-Key), answered at once, delivered by the broadcast job.
    async startBroadcast(auth: AuthContext, body: { title: string; body: string; surfaces: Surface[] }, idempotencyKey: string | undefined) {
      const { broadcast } = await createBroadcast(auth.userId, body, idempotencyKey, now());
      if (broadcast.status !== 'DONE') await deps.broadcasts.schedule(broadcast.id, broadcast.pages);
      return broadcastView(broadcast);
    },

    async broadcastProgress(id: string) {
      return broadcastView(await getBroadcast(id));
    },
  };
}
