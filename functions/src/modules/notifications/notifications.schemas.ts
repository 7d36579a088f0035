import { z } from 'zod';
import { BooleanQuerySchema } from '../../platform/core/http/query';
import { PageQuerySchema } from '../../platform/kits/firestore/paginate';
import { DocumentIdSchema } from '../../platform/core/http/ids';
import { INBOX_KINDS, PREFERENCE_CHANNELS, SURFACES } from './events';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';
import { NOTIFICATION_PAYLOAD_TEXT, notificationPayloadShape, type PayloadZod } from './notifications.payload';

export const SurfaceSchema = z.enum(SURFACES).meta({ id: 'Surface' });

// One definition with the Firestore documents' (notifications.payload), built here with classic zod: classic and
// mini share the builder's functions but not their declared types, so the namespace is handed over as mini's.
export const NotificationPayloadSchema = z
  // eslint-disable-next-line no-restricted-syntax -- the one bridge between zod's two flavours (see notifications.payload)
  .object(notificationPayloadShape(z as unknown as PayloadZod, SurfaceSchema))
  .meta({ id: 'NotificationPayload', description: NOTIFICATION_PAYLOAD_TEXT });

export const InboxItemSchema = z
  .object({
    id: z.string(),
    kind: z.enum(INBOX_KINDS).or(z.string().regex(/^SOCIAL_[A-Z0-9_]+$/)),
    event: z.string(),
    entityId: z.string(),
    surface: SurfaceSchema,
    title: z.string(),
    body: z.string(),
    data: NotificationPayloadSchema,
    read: z.boolean(),
    readAt: IsoTimeSchema.nullable(),
    createdAt: IsoTimeSchema.describe('When it was delivered; an aggregated item: when its latest actor joined (it moves to the top)'),
    group: z
      .object({
        names: z.array(z.string()).describe('The newest actors, newest first (up to 2)'),
        count: z.number().int().describe('How many the text counts: all of them (likes, shares) or those since the item was last read'),
      })
      .optional()
      .describe('An aggregated item ("Lan and 12 others liked your post"): one per event, entity and recipient, updated as people join'),
  })
  .meta({ id: 'InboxItem' });

export const InboxQuerySchema = PageQuerySchema.extend({
  unreadOnly: BooleanQuerySchema.optional(),
});

export const InboxPageSchema = z
  .object({ items: z.array(InboxItemSchema), unreadCount: z.number().int(), nextCursor: z.string().nullable() })
  .meta({ id: 'InboxPage', description: 'Newest first.' });

export const MarkReadBodySchema = z
  .object({
    ids: z.array(DocumentIdSchema).max(500).optional(),
    all: z.literal(true).optional(),
    read: z.boolean().default(true),
  })
  .refine((b) => (b.ids !== undefined) !== (b.all !== undefined), { message: 'give either ids or all: true', path: ['ids'] })
  .meta({ id: 'MarkReadBody' });

export const MarkReadResultSchema = z.object({ updated: z.number().int(), unreadCount: z.number().int() }).meta({ id: 'MarkReadResult' });

const channels = z.object(Object.fromEntries(PREFERENCE_CHANNELS.map((c) => [c, z.boolean()])) as Record<(typeof PREFERENCE_CHANNELS)[number], z.ZodBoolean>);

export const PreferencesSchema = z
  .object({
    push: z.boolean().describe('Master switch of push (calls and security push anyway)'),
    channels: channels.describe('Per-channel push under the master switch'),
    mutedConversations: z.array(z.string()),
  })
  .meta({ id: 'NotificationPreferences' });

export const PreferencesPatchSchema = z
  .object({ push: z.boolean().optional(), channels: channels.partial().strict().optional() })
  .refine((b) => b.push !== undefined || b.channels !== undefined, { message: 'push or channels is required' })
  .meta({ id: 'NotificationPreferencesPatch' });

export const ConversationParamsSchema = z.object({ conversationId: DocumentIdSchema });

export const PushTokenBodySchema = z
  .object({
    token: z.string().min(20).max(4096).describe('FCM registration token'),
    surface: SurfaceSchema.describe('App the token belongs to'),
    platform: z.enum(['android', 'ios', 'web']),
    deviceId: z.string().min(1).max(200),
  })
  .meta({ id: 'PushTokenBody' });
export const PushTokenResultSchema = z.object({ status: z.enum(['created', 'updated']) }).meta({ id: 'PushTokenResult' });
export const PushTokenDeleteSchema = z.object({ token: z.string().min(20).max(4096) }).meta({ id: 'PushTokenDelete' });

export const BroadcastBodySchema = z
  .object({
    title: z.string().trim().min(1).max(120),
    body: z.string().trim().min(1).max(1000),
    surfaces: z.array(SurfaceSchema).min(1).default(['CON', 'PAR', 'DRV']),
  })
  .meta({ id: 'BroadcastBody' });
export const BroadcastSchema = z
  .object({
    broadcastId: z.string(),
    status: z.enum(['QUEUED', 'RUNNING', 'DONE']),
    title: z.string(),
    body: z.string(),
    surfaces: z.array(SurfaceSchema),
    pagesDone: z.number().int().describe('Pages of up to 500 accounts delivered so far'),
    inboxItems: z.number().int().describe('Inbox items written so far (one per account, even one on several apps); counted exactly when DONE'),
    pushesSent: z.number().int(),
    createdAt: IsoTimeSchema,
    updatedAt: IsoTimeSchema,
    finishedAt: IsoTimeSchema.nullable(),
  })
  .meta({ id: 'Broadcast', description: 'A broadcast job and its progress.' });

export const BroadcastHeadersSchema = z.object({
  'idempotency-key': z
    .string()
    .regex(/^[\x21-\x7e]{1,200}$/, { message: 'must be 1 to 200 visible ASCII characters' })
    .optional()
    .describe('The same key (per administrator) returns the same broadcast and delivers nothing twice; another message under a used key is 422.'),
});

export const FirebaseTokenSchema = z
  .object({ token: z.string(), uid: z.string(), expiresInSec: z.number().int() })
  .meta({ id: 'FirebaseCustomToken', description: 'Sign in with signInWithCustomToken, then listen to your documents (see README).' });
