import { defineModule, defineTask } from '../../platform/core/module/module';
import { NOTIFICATIONS_EVENTS } from './notifications.events';
import { BROADCAST_QUEUE, BROADCASTS, INBOX, PREFERENCES, PRESENCE, PUSH_DEVICES, PUSH_TOKENS, REALTIME } from './notifications.collections';
import { notificationsSwitches } from './notifications.config';

const model = () => require('./notifications.model') as typeof import('./notifications.model');

export const notificationsModule = defineModule({
  name: 'notifications',
  uses: ['users'],
  apiTags: { notifications: 'Inbox (app_notifications), read state, push preferences and push tokens.' },
  config: notificationsSwitches,
  events: NOTIFICATIONS_EVENTS.rows,
  routes: (ctx) => (require('./notifications.routes') as typeof import('./notifications.routes')).notificationsRoutes(ctx),
  tasks: {
    // admin.broadcast delivery: pages of accounts, resumable from the saved cursor; a busy or failed run is
    // retried (the lease of a dead runner expires in 5 minutes).
    broadcastJob: defineTask({
      queue: BROADCAST_QUEUE,
      options: {
        retryConfig: { maxAttempts: 20, minBackoffSeconds: 30, maxBackoffSeconds: 300 },
        rateLimits: { maxConcurrentDispatches: 10 },
        timeoutSeconds: 540,
        memory: '512MiB',
      },
      load: () => (require('./broadcast.tasks') as typeof import('./broadcast.tasks')).onBroadcastTask,
    }),
  },
  collections: [
    {
      name: INBOX,
      clientAccess: true,
      listened: {
        name: 'InboxItemDocument',
        path: `${INBOX}/{id}`,
        readers: 'its recipient (`recipientId` is the caller; queries filter on it)',
        schema: () => model().inboxDocument(),
      },
    },
    {
      name: REALTIME,
      clientAccess: true,
      ttlField: 'expireAt',
      listened: {
        name: 'RealtimeEventDocument',
        path: `${REALTIME}/{id}`,
        readers: 'its recipient (`recipientId` is the caller; queries filter on it)',
        schema: () => model().realtimeDocument(),
      },
    },
    {
      name: PREFERENCES,
      clientAccess: true,
      listened: {
        name: 'NotificationPreferencesDocument',
        path: `${PREFERENCES}/{userId}`,
        readers: 'its user (the document id is the caller)',
        schema: () => model().preferencesDocument(),
      },
    },
    {
      name: PRESENCE,
      clientAccess: true,
      listened: {
        name: 'PresenceMemberDocument',
        path: `${PRESENCE}/{roomId}/members/{userId}`,
        readers: 'its user (the document id is the caller)',
        writers: "its user's app (create, update, delete): only `expiresAt`, at most 2 minutes after request.time, and `updatedAt`",
        schema: () => model().presenceDocument(),
        unmigrated: 'written by apps; the server reads only expiresAt, which the rules have always required as a Timestamp',
      },
    },
    { name: PUSH_TOKENS },
    { name: PUSH_DEVICES },
    { name: BROADCASTS },
  ],
});
