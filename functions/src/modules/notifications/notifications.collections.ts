import { documentTaskQueue } from '../../platform/kits/tasks/tasks';

// Collection names and the task queue, apart from the model: the module definition (loaded at every cold start)
// needs only these. notifications.model.ts re-exports them.

// Firestore layout: the inbox and realtime events apps listen to, preferences, presence, push tokens and devices.
export const INBOX = 'app_notifications';
export const REALTIME = 'realtime_events';
export const PREFERENCES = 'notification_prefs';
export const PRESENCE = 'presence';
export const PUSH_TOKENS = 'push_tokens';
export const PUSH_DEVICES = 'push_devices';

// `broadcasts/{id}`: admin.broadcast jobs (progress, cursor, lease).
export const BROADCASTS = 'broadcasts';

// Accounts per page of a broadcast's audience (read in id order, delivered as one dispatch).
export const BROADCAST_PAGE_SIZE = 500;

// The queue of the `broadcastJob` task function (admin.broadcast delivery).
export const BROADCAST_QUEUE = documentTaskQueue('broadcastJob', 'broadcastId');
