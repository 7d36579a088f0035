import { DELIVERY_QUEUE } from '../message-queue/message-queue.queue';
import { defineTask, type TaskDefinition } from './module';

// The platform's own task functions, declared in the entry's half of the bundle (the queue and its options); their
// handlers load the runtime half when a task first runs.

/**
 * `deliverMessage` sends the mails and texts platform/core/message-queue hands over (OTP, password reset) through its
 * queue; its senders are made once per instance. A refused send throws (Cloud Tasks retries it); decoys send nothing.
 */
export function platformTasks(): Record<string, TaskDefinition<never>> {
  return {
    [DELIVERY_QUEUE.name]: defineTask({
      queue: DELIVERY_QUEUE,
      options: { retryConfig: { maxAttempts: 5, minBackoffSeconds: 10 }, rateLimits: { maxConcurrentDispatches: 50 }, timeoutSeconds: 60, memory: '256MiB' },
      load: () => {
        const delivery = require('../message-queue/message-queue') as typeof import('../message-queue/message-queue');
        let senders: import('../message-queue/message-queue').Senders | undefined;
        return async (message, config) => {
          if (!senders) {
            const { createMailer } = require('../mail/mailer') as typeof import('../mail/mailer');
            const { createSmsSender } = require('../sms/sms') as typeof import('../sms/sms');
            senders = { mailer: createMailer(config), sms: createSmsSender(config) };
          }
          await delivery.deliverQueued(message, senders);
        };
      },
    }),
  };
}
