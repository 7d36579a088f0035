import type { LogEntry } from 'firebase-functions/logger';
import {
  createMessageQueue,
  deliverQueued,
  DELIVERY_QUEUE,
  queuedMessageSchema,
  type QueuedMessage,
  type Senders,
} from '../../src/platform/core/message-queue/message-queue';
import { setLogSink } from '../../src/platform/core/logging/logger';
import { platformTasks } from '../../src/platform/core/module/platform-tasks';
import { testConfig } from '../helpers/config';

function fakeSenders(opts: { mailOk?: boolean; smsOk?: boolean; mailConfigured?: boolean } = {}) {
  const sent: string[] = [];
  const senders: Senders = {
    mailer: {
      configured: opts.mailConfigured ?? true,
      send: async (m) => {
        sent.push(`mail:${m.to}`);
        return opts.mailOk ?? true;
      },
    },
    sms: {
      provider: 'console',
      send: async (m) => {
        sent.push(`sms:${m.to}`);
        return opts.smsOk ?? true;
      },
    },
  };
  return { senders, sent };
}

const mail: QueuedMessage = { channel: 'mail', message: { to: 'lan@example.com', subject: 'Code', text: 'Your code is 123456' } };
const settle = () => new Promise((r) => setImmediate(r));

describe('message queue', () => {
  it('auto: queued when running as a Cloud Function, in the background elsewhere', () => {
    const { senders } = fakeSenders();
    expect(createMessageQueue(testConfig(), senders, async () => undefined, { FUNCTION_TARGET: 'api' }).mode).toBe('queue');
    expect(createMessageQueue(testConfig(), senders, async () => undefined, { K_SERVICE: 'api' }).mode).toBe('queue');
    expect(createMessageQueue(testConfig(), senders, async () => undefined, {}).mode).toBe('background');
    expect(createMessageQueue(testConfig({ MESSAGE_DELIVERY: 'background' }), senders, async () => undefined, { FUNCTION_TARGET: 'api' }).mode).toBe(
      'background',
    );
  });

  it('queue: hands the message to the queue, and a decoy when there is nothing to send', async () => {
    const { senders, sent } = fakeSenders();
    const queued: QueuedMessage[] = [];
    const queue = createMessageQueue(testConfig({ MESSAGE_DELIVERY: 'queue' }), senders, async (m) => {
      queued.push(m);
    });
    await queue.hand('otp', mail);
    await queue.hand('otp', undefined);
    expect(queued).toEqual([mail, { channel: 'none' }]);
    expect(sent).toEqual([]);
  });

  it('queue down: falls back to sending directly, decoys still send nothing', async () => {
    const { senders, sent } = fakeSenders();
    const queue = createMessageQueue(testConfig({ MESSAGE_DELIVERY: 'queue' }), senders, async () => {
      throw new Error('UNAVAILABLE');
    });
    await queue.hand('otp', mail);
    await queue.hand('otp', undefined);
    await settle();
    expect(sent).toEqual(['mail:lan@example.com']);
  });

  it('background: sends without waiting for the server; nothing for undefined', async () => {
    let release: (ok: boolean) => void = () => undefined;
    const senders: Senders = { mailer: { configured: true, send: () => new Promise<boolean>((r) => (release = r)) }, sms: fakeSenders().senders.sms };
    const queue = createMessageQueue(testConfig({ MESSAGE_DELIVERY: 'background' }), senders);
    await expect(queue.hand('otp', mail)).resolves.toBeUndefined(); // returned while the send is still pending
    release(true);
  });
});

describe('the delivery task', () => {
  it('sends mail and SMS; a decoy sends nothing', async () => {
    const { senders, sent } = fakeSenders();
    expect(await deliverQueued(mail, senders)).toBe('sent');
    expect(await deliverQueued({ channel: 'sms', message: { to: '+84912345678', text: 'code 123456' } }, senders)).toBe('sent');
    expect(await deliverQueued({ channel: 'none' }, senders)).toBe('decoy');
    expect(sent).toEqual(['mail:lan@example.com', 'sms:+84912345678']);
  });

  it('a refused send throws so the queue retries; no mail server configured is not retried', async () => {
    await expect(deliverQueued(mail, fakeSenders({ mailOk: false }).senders)).rejects.toThrow(/retries/);
    await expect(deliverQueued({ channel: 'sms', message: { to: '+84912345678', text: 'x' } }, fakeSenders({ smsOk: false }).senders)).rejects.toThrow(
      /retries/,
    );
    expect(await deliverQueued(mail, fakeSenders({ mailOk: false, mailConfigured: false }).senders)).toBe('not-configured');
  });

  it('the task payload is checked', () => {
    expect(queuedMessageSchema.safeParse(mail).success).toBe(true);
    expect(queuedMessageSchema.safeParse({ channel: 'none' }).success).toBe(true);
    expect(queuedMessageSchema.safeParse({ channel: 'fax', message: {} }).success).toBe(false);
    expect(queuedMessageSchema.safeParse({ channel: 'mail', message: { to: 'x@y.z' } }).success).toBe(false);
  });
});

describe('the delivery queue is a platform/kits/tasks queue', () => {
  it('deliverMessage consumes the queue of its name, with the payload schema and the retry policy it had', () => {
    const task = platformTasks().deliverMessage;
    expect(task.queue).toBe(DELIVERY_QUEUE);
    expect(DELIVERY_QUEUE).toMatchObject({ name: 'deliverMessage', payload: queuedMessageSchema });
    expect(task.options).toEqual({
      retryConfig: { maxAttempts: 5, minBackoffSeconds: 10 },
      rateLimits: { maxConcurrentDispatches: 50 },
      timeoutSeconds: 60,
      memory: '256MiB',
    });
  });

  it('its handler sends with the configured senders: the console SMS provider refuses (retried), a mail with no server is not retried, a decoy sends nothing', async () => {
    const logged: LogEntry[] = [];
    setLogSink((entry) => logged.push(entry));
    try {
      const handle = platformTasks().deliverMessage.load() as (message: QueuedMessage, config: ReturnType<typeof testConfig>) => Promise<void>;
      const config = testConfig();
      await expect(handle({ channel: 'sms', message: { to: '+84912345678', text: 'code 123456' } }, config)).rejects.toThrow(/retries/);
      await handle(mail, config);
      await handle({ channel: 'none' }, config);
      expect(logged.map((l) => String(l.message))).toEqual(['sms not sent (SMS_PROVIDER=console)', 'mail not sent (no SMTP transport)']);
    } finally {
      setLogSink(() => undefined);
    }
  });

  it('the hand-over checks the payload through the kit: a message the queue refuses is dropped (as the task dropped it), not sent', async () => {
    const { senders, sent } = fakeSenders();
    const logged: Array<Record<string, unknown>> = [];
    setLogSink((entry) => logged.push(entry));
    try {
      const queue = createMessageQueue(testConfig({ MESSAGE_DELIVERY: 'queue' }), senders);
      await queue.hand('otp', { channel: 'mail', message: { to: 'x', subject: 'Code', text: 'Your code' } });
      await settle();
      expect(sent).toEqual([]);
      expect(logged.map((l) => String(l.message))).toContain('otp: message refused by its queue, not sent');
      expect(logged.some((l) => String(l.message).includes('queue unavailable'))).toBe(false);
    } finally {
      setLogSink(() => undefined);
    }
  });
});
