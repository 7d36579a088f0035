import type { AppConfig } from '../config';
import { logger } from '../logging/logger';
import { enqueue } from '../../kits/tasks/tasks';
import type { Mailer } from '../mail/mailer';
import type { SmsSender } from '../sms/sms';

import { DELIVERY_QUEUE, type QueuedMessage } from './message-queue.queue';

export { DELIVERY_FUNCTION, DELIVERY_QUEUE, queuedMessageSchema, type QueuedMessage } from './message-queue.queue';

export interface Senders {
  mailer: Mailer;
  sms: SmsSender;
}

export interface MessageQueue {
  readonly mode: 'queue' | 'background';
  /**
   * Hands a message over for delivery without making the caller wait for the mail or SMS server, and
   * does the same work when there is nothing to send (`undefined`), so the response time does not tell.
   */
  hand(what: string, message: QueuedMessage | undefined): Promise<void>;
}

type Enqueue = (message: QueuedMessage) => Promise<void>;

const cloudTasksEnqueue: Enqueue = (message) => enqueue(DELIVERY_QUEUE, message);

export function runsAsCloudFunction(env: Record<string, string | undefined> = process.env): boolean {
  return Boolean(env.FUNCTION_TARGET || env.K_SERVICE);
}

export async function sendNow(message: QueuedMessage, senders: Senders): Promise<boolean> {
  if (message.channel === 'mail') return senders.mailer.send(message.message);
  if (message.channel === 'sms') return senders.sms.send(message.message);
  return true;
}

// Under Cloud Functions a promise still running after the response may never finish (the instance's
// CPU is throttled once the response is sent), so there messages go through a Cloud Tasks queue:
// durable, retried, and the request waits only for the hand-over. Elsewhere (a plain server, tests)
// they are sent in the background. MESSAGE_DELIVERY picks one explicitly.
export function createMessageQueue(config: Readonly<AppConfig>, senders: Senders, enqueue: Enqueue = cloudTasksEnqueue, env = process.env): MessageQueue {
  const mode = config.MESSAGE_DELIVERY === 'auto' ? (runsAsCloudFunction(env) ? 'queue' : 'background') : config.MESSAGE_DELIVERY;
  const inBackground = (what: string, message: QueuedMessage) => {
    sendNow(message, senders).catch((err: Error) => logger.warn(`${what} failed`, { error: err.message }));
  };
  return {
    mode,
    async hand(what, message) {
      if (mode === 'background') {
        if (message) inBackground(what, message);
        return;
      }
      try {
        await enqueue(message ?? { channel: 'none' });
      } catch (err) {
        // A message its queue refuses (over a length limit) was dropped by the task before: it still is.
        if (err instanceof Error && (err.name === 'ZodError' || err.name === '$ZodError')) {
          logger.warn(`${what}: message refused by its queue, not sent`, { error: err.message });
          return;
        }
        // The queue is down: better a best-effort send than none.
        logger.error(`${what}: message queue unavailable, sending directly`, { error: (err as Error).message });
        if (message) inBackground(what, message);
      }
    },
  };
}

// The queue's task: sends one message. A refusal by a configured server throws, so Cloud Tasks retries;
// with no server configured (development) it is logged and dropped, as a direct send would be.
export async function deliverQueued(message: QueuedMessage, senders: Senders): Promise<'sent' | 'decoy' | 'not-configured'> {
  if (message.channel === 'none') return 'decoy';
  if (message.channel === 'mail' && !senders.mailer.configured) {
    await senders.mailer.send(message.message); // logs recipient and subject
    return 'not-configured';
  }
  if (!(await sendNow(message, senders))) throw new Error(`${message.channel} to ${message.message.to} not accepted; the queue retries`);
  return 'sent';
}
