import { defineModule, defineTask } from '../../platform/module/module';
import { BROADCAST_QUEUE, BROADCASTS, INBOX, PREFERENCES, PRESENCE, PUSH_DEVICES, PUSH_TOKENS, REALTIME } from './notifications.model';

export const notificationsModule = defineModule({
  name: 'notifications',
  routes: (ctx) => (require('./notifications.routes') as typeof import('./notifications.routes')).notificationsRoutes(ctx),
  tasks: {
    // admin.broadcast delivery: pages of accounts, resumable from the saved cursor; a busy or failed run is
    // retried (the lease of a dead runner expires in 5 minutes).
    broadcastJob: defineTask({
      queue: BROADCAST_QUEUE,
      options: { retryConfig: { maxAttempts: 20, minBackoffSeconds: 30, maxBackoffSeconds: 300 }, rateLimits: { maxConcurrentDispatches: 10 }, timeoutSeconds: 540, memory: '512MiB' },
      load: () => (require('./broadcast.tasks') as typeof import('./broadcast.tasks')).onBroadcastTask,
    }),
  },
  collections: [
    { name: INBOX, clientAccess: true },
    { name: REALTIME, clientAccess: true, ttlField: 'expireAt' },
    { name: PREFERENCES, clientAccess: true },
    { name: PRESENCE, clientAccess: true },
    { name: PUSH_TOKENS },
    { name: PUSH_DEVICES },
    { name: BROADCASTS },
  ],
});
