import type { AppContext } from '../../platform/http/module';
import { defineRoute, type AnyRoute } from '../../platform/http/route';
import { DeletedSchema, IdParamsSchema } from '../../platform/http/ids';
import { broadcastSchedulerFor, notificationHub } from './notifications.wiring';
import {
  BroadcastBodySchema,
  BroadcastHeadersSchema,
  BroadcastSchema,
  ConversationParamsSchema,
  FirebaseTokenSchema,
  InboxPageSchema,
  InboxQuerySchema,
  MarkReadBodySchema,
  MarkReadResultSchema,
  PreferencesPatchSchema,
  PreferencesSchema,
  PushTokenBodySchema,
  PushTokenDeleteSchema,
  PushTokenResultSchema,
} from './notifications.schemas';
import { createNotificationsService } from './notifications.service';

export function notificationsRoutes({ config }: AppContext): AnyRoute[] {
  const notifications = createNotificationsService({ hub: notificationHub(config), broadcasts: broadcastSchedulerFor(config) });
  const mute = (muted: boolean) =>
    defineRoute({
      method: muted ? 'put' : 'delete',
      path: '/notifications/mutes/:conversationId',
      tag: 'notifications',
      summary: muted ? 'Mute a conversation (no push for its messages)' : 'Unmute a conversation',
      auth: [],
      request: { params: ConversationParamsSchema },
      response: { description: 'The preferences.', schema: PreferencesSchema },
      handler: ({ params, auth }) => notifications.setMuted(auth!.userId, params.conversationId, muted),
    });
  return [
    defineRoute({
      method: 'get',
      path: '/notifications',
      tag: 'notifications',
      summary: 'My inbox (newest first) with the unread count',
      auth: [],
      request: { query: InboxQuerySchema },
      response: { description: 'A page of inbox items.', schema: InboxPageSchema },
      handler: ({ query, auth }) => notifications.inbox(auth!.userId, query) as never,
    }),
    defineRoute({
      method: 'patch',
      path: '/notifications',
      tag: 'notifications',
      summary: 'Mark some or all of my inbox read (or unread)',
      auth: [],
      request: { body: MarkReadBodySchema },
      response: { description: 'How many items changed, and the unread count.', schema: MarkReadResultSchema },
      handler: ({ body, auth }) => notifications.markRead(auth!.userId, body),
    }),
    defineRoute({
      method: 'get',
      path: '/notifications/preferences',
      tag: 'notifications',
      summary: 'My push preferences',
      auth: [],
      response: { description: 'Master switch, channels, muted conversations.', schema: PreferencesSchema },
      handler: ({ auth }) => notifications.preferences(auth!.userId),
    }),
    defineRoute({
      method: 'patch',
      path: '/notifications/preferences',
      tag: 'notifications',
      summary: 'Change my push preferences',
      description: 'Calls and security alerts push whatever these say.',
      auth: [],
      request: { body: PreferencesPatchSchema },
      response: { description: 'The preferences.', schema: PreferencesSchema },
      handler: ({ body, auth }) => notifications.updatePreferences(auth!.userId, body),
    }),
    mute(true),
    mute(false),
    defineRoute({
      method: 'post',
      path: '/push-tokens',
      tag: 'notifications',
      summary: 'Register this device for push (after login, from CON, PAR and DRV)',
      description: 'Many devices per user; registering the same token again updates it; signing out of the session removes it.',
      auth: [],
      request: { body: PushTokenBodySchema },
      response: { description: 'Stored.', schema: PushTokenResultSchema },
      handler: ({ body, auth }) => notifications.registerToken(auth!, body),
    }),
    defineRoute({
      method: 'delete',
      path: '/push-tokens',
      tag: 'notifications',
      summary: 'Unregister a push token of mine',
      auth: [],
      errors: [404],
      request: { body: PushTokenDeleteSchema },
      response: { description: 'Removed.', schema: DeletedSchema },
      handler: ({ body, auth }) => notifications.removeToken(auth!, body.token),
    }),
    defineRoute({
      method: 'post',
      path: '/notifications/broadcast',
      tag: 'notifications',
      summary: 'Broadcast a message to every user of the chosen apps (admin.broadcast)',
      description:
        'Answers 202 at once with the broadcast id; a background job (Cloud Tasks) delivers it in pages of 500 accounts, saving its place after each page, so an interrupted run resumes where it stopped and nobody gets it twice. One inbox SYSTEM item per account, even for an account on several of the apps; push in chunks of 500 where the promo channel preference allows. Follow the progress with GET /notifications/broadcast/{id}. Send an Idempotency-Key: a retried request returns the same broadcast.',
      auth: ['ADMIN'],
      permission: 'users.manage',
      codes: ['IDEMPOTENCY_KEY_REUSED'],
      request: { body: BroadcastBodySchema, headers: BroadcastHeadersSchema },
      response: { status: 202, description: 'Accepted: the broadcast and its progress so far.', schema: BroadcastSchema },
      handler: ({ body, auth, headers }) => notifications.startBroadcast(auth!, body, headers['idempotency-key']),
    }),
    defineRoute({
      method: 'get',
      path: '/notifications/broadcast/:id',
      tag: 'notifications',
      summary: 'Progress of a broadcast',
      auth: ['ADMIN'],
      permission: 'users.manage',
      errors: [404],
      request: { params: IdParamsSchema },
      response: { description: 'The broadcast and its progress.', schema: BroadcastSchema },
      handler: ({ params }) => notifications.broadcastProgress(params.id),
    }),
    defineRoute({
      method: 'post',
      path: '/auth/firebase-token',
      tag: 'auth',
      summary: 'A Firebase custom token for realtime listeners',
      description: 'signInWithCustomToken with it, then listen to app_notifications and realtime_events where recipientId == your id (see README).',
      auth: [],
      response: { description: 'The custom token (uid = account id, roles as claims).', schema: FirebaseTokenSchema },
      handler: ({ auth }) => notifications.firebaseToken(auth!),
    }),
  ];
}

