import * as z from 'zod/mini';
import { defineTaskQueue } from '../../kits/tasks/tasks';
import type { MailMessage } from '../mail/mailer';
import type { SmsMessage } from '../sms/sms';

// The `deliverMessage` queue's declaration apart from its sending code: the Functions entry declares the task from
// it at import without loading the runtime half of the bundle (platform/core/module/platform-tasks.ts).

export const DELIVERY_FUNCTION = 'deliverMessage';

/** A mail or a text to send; `none` is a decoy that costs the same hand-over and sends nothing. */
export type QueuedMessage = { channel: 'mail'; message: MailMessage } | { channel: 'sms'; message: SmsMessage } | { channel: 'none' };

// The task payload, checked when handed over and again before sending.
const to = z.string().check(z.minLength(3), z.maxLength(320));
export const queuedMessageSchema: z.ZodMiniType<QueuedMessage> = z.discriminatedUnion('channel', [
  z.object({ channel: z.literal('mail'), message: z.object({ to, subject: z.string().check(z.maxLength(500)), text: z.string().check(z.maxLength(20_000)) }) }),
  z.object({ channel: z.literal('sms'), message: z.object({ to, text: z.string().check(z.maxLength(2_000)) }) }),
  z.object({ channel: z.literal('none') }),
]);

/** The Cloud Tasks queue of the `deliverMessage` function (platform/kits/tasks; exported by platform/core/module/platform-tasks). */
export const DELIVERY_QUEUE = defineTaskQueue<QueuedMessage>(DELIVERY_FUNCTION, queuedMessageSchema);
