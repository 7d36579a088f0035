import { PUSH_OUTBOX } from '../../kits/firestore/collections';
import { db, messagingAdmin } from '../firebase/firebase';
import { logger } from '../logging/logger';
import { timestampOf } from '../../kits/time/time';

export interface PushResult {
  success: boolean;
  messageId?: string;
  errorCode?: string;
}

// How push messages leave: FCM in production; without an FCM emulator, an outbox collection elsewhere.
export interface PushTransport {
  readonly name: 'fcm' | 'outbox';
  /** One result per message, in order. At most FCM_BATCH messages per call. */
  sendEach(messages: object[]): Promise<PushResult[]>;
}

export const FCM_BATCH = 500;

export { PUSH_OUTBOX };

export function fcmTransport(): PushTransport {
  return {
    name: 'fcm',
    async sendEach(messages) {
      const response = await messagingAdmin().sendEach(messages as Parameters<ReturnType<typeof messagingAdmin>['sendEach']>[0]);
      return response.responses.map((r) => ({ success: r.success, messageId: r.messageId, errorCode: r.error?.code }));
    },
  };
}

// Writes the exact message that would be sent, so tests and developers see it (Firestore + log).
export function outboxTransport(now: () => number = Date.now): PushTransport {
  return {
    name: 'outbox',
    async sendEach(messages) {
      const batch = db().batch();
      const ids: string[] = [];
      for (const message of messages) {
        const ref = db().collection(PUSH_OUTBOX).doc();
        ids.push(ref.id);
        const token = (message as { token?: string }).token ?? '';
        batch.set(ref, { message, token, createdAt: timestampOf(now()), expireAt: timestampOf(now() + 7 * 24 * 3600_000) });
      }
      await batch.commit();
      logger.info('push written to the outbox (no FCM here)', { count: messages.length });
      return ids.map((id) => ({ success: true, messageId: `outbox/${id}` }));
    },
  };
}

export function createPushTransport(mode: 'auto' | 'fcm' | 'outbox', production: boolean): PushTransport {
  const fcm = mode === 'fcm' || (mode === 'auto' && production);
  return fcm ? fcmTransport() : outboxTransport();
}
