import { createHash } from 'node:crypto';
import { logger } from '../../platform/logging/logger';
import { FCM_BATCH, type PushTransport } from '../../platform/push/transport';
import { appLinkOf, inboxKindOf, policyFor, type EventPolicy, type Surface } from './events';
import { buildPushMessage, isDeadToken, pushDecision, withDefaults, type NotificationPayload, type PushSkip } from './notifications.model';
import { notificationsRepo } from './notifications.repo';
import { userIdsWithHat } from '../users/users.repo';

export interface Recipient {
  userId: string;
  surface: Surface;
}

export interface DispatchInput {
  event: string;
  recipients: Recipient[];
  /** The ride, order, call, conversation… the event is about. */
  entityId: string;
  /** Distinguishes repeated occurrences of one event on one entity (e.g. a message id); part of the idempotency key. */
  occurrence?: string;
  title: string;
  body: string;
  /** Chat: the conversation (mute and presence); rides: the ride room (presence). */
  conversationId?: string;
  roomId?: string;
  /** Extra deep-link params (strings). */
  params?: Record<string, string>;
  /** Extra fields of the realtime event document (the vertical's own payload). */
  realtimeData?: Record<string, unknown>;
}

export interface DeliveryReport {
  userId: string;
  surface: Surface;
  notificationId: string;
  duplicate: boolean;
  inbox: boolean;
  realtime: boolean;
  push: { sent: number; failed: number; removedTokens: number } | { skipped: PushSkip | 'no-tokens' };
}

const REALTIME_TTL_MS = 24 * 3600_000;

// Deterministic: a repeated delivery of the same occurrence maps to the same documents.
export function notificationId(event: string, entityId: string, userId: string, occurrence = ''): string {
  return createHash('sha256').update(`${event}\u0000${entityId}\u0000${userId}\u0000${occurrence}`).digest('base64url').slice(0, 32);
}

// The one way verticals notify: inbox, realtime event and push, decided by the event table.
export function createHub(deps: { transport: PushTransport; now?: () => number }) {
  const now = deps.now ?? Date.now;

  async function push(policy: EventPolicy, recipient: Recipient, payload: NotificationPayload, input: DispatchInput): Promise<DeliveryReport['push']> {
    const tokens = await notificationsRepo.tokensOf(recipient.userId, recipient.surface);
    if (tokens.length === 0) return { skipped: 'no-tokens' };
    const messages = tokens.map((t) => buildPushMessage({ token: t.token, platform: t.platform, policy, payload, title: input.title, body: input.body, now: now() }));
    let sent = 0;
    let failed = 0;
    const dead: string[] = [];
    for (let i = 0; i < messages.length; i += FCM_BATCH) {
      const chunk = messages.slice(i, i + FCM_BATCH);
      const results = await deps.transport.sendEach(chunk);
      results.forEach((r, j) => {
        if (r.success) sent += 1;
        else {
          failed += 1;
          if (isDeadToken(r.errorCode)) dead.push(chunk[j].token);
          else logger.warn('push failed; token kept for a retry', { userId: recipient.userId, code: r.errorCode });
        }
      });
    }
    await notificationsRepo.deleteTokens(dead);
    return { sent, failed, removedTokens: dead.length };
  }

  async function deliver(policy: EventPolicy, recipient: Recipient, input: DispatchInput): Promise<DeliveryReport> {
    const id = notificationId(input.event, input.entityId, recipient.userId, input.occurrence);
    const kind = inboxKindOf(policy, input.event);
    const link = policy.deepLink[recipient.surface];
    const appLink = appLinkOf(policy, input.entityId);
    const payload: NotificationPayload = {
      event: input.event,
      kind: kind ?? 'NONE',
      notificationId: id,
      entityId: input.entityId,
      sfx: policy.sfx ?? '',
      deepLink: { tab: link?.tab ?? '', screen: link?.screen ?? '', params: { id: input.entityId, ...(appLink ? { appLink } : {}), ...(input.params ?? {}) } },
      surface: recipient.surface,
    };
    const report: DeliveryReport = { userId: recipient.userId, surface: recipient.surface, notificationId: id, duplicate: false, inbox: false, realtime: false, push: { skipped: 'policy' } };

    // 1. Telemetry: realtime only, then stop.
    if (policy.telemetry) {
      const t = now();
      report.realtime = await notificationsRepo.createRealtime(`${id}-${t}`, { recipientId: recipient.userId, type: policy.realtime, payload, data: input.realtimeData ?? {} }, 5 * 60_000, t);
      return report;
    }
    // 2. Inbox, when the policy keeps one, and 3. the realtime event, written together: both are create()s
    // on the same id, so a repeated delivery finds both already there (the idempotency guard).
    const [inboxCreated, realtimeCreated] = await Promise.all([
      kind
        ? notificationsRepo.createInbox(id, {
            recipientId: recipient.userId,
            surface: recipient.surface,
            kind,
            event: input.event,
            entityId: input.entityId,
            title: input.title,
            body: input.body,
            data: payload,
            read: false,
            readAt: null,
          }, now())
        : Promise.resolve(false),
      policy.realtime
        ? notificationsRepo.createRealtime(id, { recipientId: recipient.userId, type: policy.realtime, payload, data: input.realtimeData ?? {} }, REALTIME_TTL_MS, now())
        : Promise.resolve(false),
    ]);
    report.inbox = inboxCreated;
    report.realtime = realtimeCreated;
    if ((kind && !report.inbox) || (!kind && policy.realtime && !report.realtime)) return { ...report, duplicate: true, push: { skipped: 'policy' } };
    // 4. Push, if allowed. 5. Never SMS.
    const prefs = withDefaults(await notificationsRepo.preferences(recipient.userId));
    const muted = input.conversationId !== undefined && prefs.muted[input.conversationId] === true;
    const room = input.roomId ?? (policy.pattern === 'chat.message' && input.conversationId ? `chat_${input.conversationId}` : undefined);
    const present = room !== undefined && policy.push === 'allowed' ? await notificationsRepo.isPresent(room, recipient.userId, now()) : false;
    const decision = pushDecision(policy, prefs, { muted, present });
    report.push = decision.send ? await push(policy, recipient, payload, input) : { skipped: decision.reason };
    return report;
  }

  async function dispatch(input: DispatchInput): Promise<DeliveryReport[]> {
    const policy = policyFor(input.event);
    if (!policy) throw new Error(`Unknown event ${input.event}: add it to the event table`);
    const allowed = input.recipients.filter((r) => policy.recipients.includes(r.surface));
    for (const skipped of input.recipients.filter((r) => !allowed.includes(r))) {
      logger.warn('recipient surface not in the event table', { event: input.event, surface: skipped.surface });
    }
    return Promise.all(allowed.map((r) => deliver(policy, r, input)));
  }

  // admin.broadcast to every account of the given apps: inbox items through BulkWriter in pages,
  // push by pages of tokens in sendEach chunks — never one request per user.
  async function broadcast(input: { broadcastId: string; title: string; body: string; surfaces: Surface[] }) {
    const policy = policyFor('admin.broadcast')!;
    let inbox = 0;
    let pushed = 0;
    for (const surface of input.surfaces.filter((s) => policy.recipients.includes(s))) {
      const payloadFor = (userId: string): NotificationPayload => ({
        event: 'admin.broadcast',
        kind: 'SYSTEM',
        notificationId: notificationId('admin.broadcast', input.broadcastId, userId, surface),
        entityId: input.broadcastId,
        sfx: policy.sfx ?? '',
        deepLink: { ...policy.deepLink[surface]!, params: { id: input.broadcastId } },
        surface,
      });
      // Pages are written while the next page is read.
      const writes: Array<Promise<number>> = [];
      for await (const ids of userIdsWithHat(surface)) {
        writes.push(
          notificationsRepo.createInboxMany(
            ids.map((userId) => {
              const payload = payloadFor(userId);
              return {
                id: payload.notificationId,
                data: { recipientId: userId, surface, kind: 'SYSTEM', event: 'admin.broadcast', entityId: input.broadcastId, title: input.title, body: input.body, data: payload, read: false, readAt: null },
              };
            }),
            now(),
          ),
        );
      }
      inbox += (await Promise.all(writes)).reduce((a, b) => a + b, 0);
      const optedOut = await notificationsRepo.optedOut(policy.preference ?? 'promo');
      for await (const tokens of notificationsRepo.tokensOfSurface(surface)) {
        const messages = tokens
          .filter((t) => !optedOut.has(t.userId))
          .map((t) => buildPushMessage({ token: t.token, platform: t.platform, policy, payload: payloadFor(t.userId), title: input.title, body: input.body, now: now() }));
        for (let i = 0; i < messages.length; i += FCM_BATCH) {
          const chunk = messages.slice(i, i + FCM_BATCH);
          const results = await deps.transport.sendEach(chunk);
          pushed += results.filter((r) => r.success).length;
          await notificationsRepo.deleteTokens(chunk.filter((_, j) => isDeadToken(results[j].errorCode)).map((m) => m.token));
        }
      }
    }
    return { broadcastId: input.broadcastId, inboxItems: inbox, pushesSent: pushed };
  }

  return {
    dispatch,
    broadcast,
    // Consumer, partner owner and driver of one entity together; the table decides who gets what.
    dispatchFanout(input: Omit<DispatchInput, 'recipients'> & { consumerId?: string; partnerOwnerId?: string; driverId?: string }) {
      const recipients: Recipient[] = [];
      if (input.consumerId) recipients.push({ userId: input.consumerId, surface: 'CON' });
      if (input.partnerOwnerId) recipients.push({ userId: input.partnerOwnerId, surface: 'PAR' });
      if (input.driverId) recipients.push({ userId: input.driverId, surface: 'DRV' });
      const policy = policyFor(input.event);
      return dispatch({ ...input, recipients: recipients.filter((r) => policy?.recipients.includes(r.surface) ?? true) });
    },
  };
}

export type Hub = ReturnType<typeof createHub>;
