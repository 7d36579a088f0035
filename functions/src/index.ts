// Cloud Functions entry: the HTTPS function `api` and the Firestore triggers.
// Kept light on purpose: Express, the routes and firebase-admin load on the first request.
import type { Express } from 'express';
import { onRequest } from 'firebase-functions/https';
import { onTaskDispatched } from 'firebase-functions/tasks';
import { defineSecret } from 'firebase-functions/params';
import { getConfig } from './platform/config/config';

const jwtSecret = defineSecret('JWT_SECRET');
const jwtRefreshSecret = defineSecret('JWT_REFRESH_SECRET');
// Every function: the configuration (validated at boot) needs them.
const secrets = [jwtSecret, jwtRefreshSecret];

// Deploy-time discovery loads this file without secrets: validate at cold start of a real instance only.
const discoveringFunctions = process.env.FUNCTIONS_CONTROL_API === 'true';
if (!discoveringFunctions) getConfig(); // throws ConfigError: the instance refuses to boot

let app: Express | undefined;

export const api = onRequest(
  { secrets, invoker: 'public', memory: '512MiB', timeoutSeconds: 60, concurrency: 80 },
  (req, res) => {
    app ??= (require('./app') as typeof import('./app')).createApp();
    app(req, res);
  },
);

// The Tasks emulator delivers at once (it ignores schedule times), so a ring task waits in an emulator
// worker until its deadline; few at a time there, or waiting rings would take every slot from the API.
const RING_TASKS_IN_FLIGHT = process.env.FUNCTIONS_EMULATOR === 'true' ? 4 : 100;

// Ring timeout of calls (Cloud Tasks): settles a still-ringing call as MISSED. Retried on failure; idempotent.
export const callRingTimeout = onTaskDispatched<{ callId?: string }>(
  { secrets, retryConfig: { maxAttempts: 5, minBackoffSeconds: 5 }, rateLimits: { maxConcurrentDispatches: RING_TASKS_IN_FLIGHT }, timeoutSeconds: 120, memory: '256MiB' },
  async (request) => {
    const callId = request.data?.callId;
    if (typeof callId !== 'string' || callId.length === 0) return;
    const { onRingTimeout } = require('./modules/chat/calls.tasks') as typeof import('./modules/chat/calls.tasks');
    await onRingTimeout(callId, getConfig());
  },
);

// admin.broadcast delivery (Cloud Tasks): pages of accounts, resumable from the saved cursor; a busy or
// failed run is retried (the lease of a dead runner expires in 5 minutes).
export const broadcastJob = onTaskDispatched<{ broadcastId?: string }>(
  { secrets, retryConfig: { maxAttempts: 20, minBackoffSeconds: 30, maxBackoffSeconds: 300 }, rateLimits: { maxConcurrentDispatches: 10 }, timeoutSeconds: 540, memory: '512MiB' },
  async (request) => {
    const broadcastId = request.data?.broadcastId;
    if (typeof broadcastId !== 'string' || broadcastId.length === 0) return;
    const { onBroadcastTask } = require('./modules/notifications/broadcast.tasks') as typeof import('./modules/notifications/broadcast.tasks');
    await onBroadcastTask(broadcastId, getConfig());
  },
);

// Firestore triggers are exported lazily: firebase-functions/firestore loads the Firestore client (~40 ms),
// which the `api` instance (FUNCTION_TARGET=api) never needs. Discovery and the trigger's own instance
// read the export, which builds it then.
function lazyExport(name: string, build: () => unknown): void {
  let built: unknown;
  Object.defineProperty(module.exports, name, { enumerable: true, configurable: true, get: () => (built ??= build()) });
}
const firestoreTriggers = () => require('firebase-functions/firestore') as typeof import('firebase-functions/firestore');

// A call's status change: the missed-call notice, delivered at least once (retried), idempotent by its
// notification id.
lazyExport('callStatusChanged', () =>
  firestoreTriggers().onDocumentWritten({ document: 'calls/{callId}', retry: true, secrets, memory: '256MiB', timeoutSeconds: 60 }, async (event) => {
    const { onCallWritten } = require('./modules/chat/calls.triggers') as typeof import('./modules/chat/calls.triggers');
    const { notificationHub } = require('./modules/notifications/hub.instance') as typeof import('./modules/notifications/hub.instance');
    const { toCallRecord } = require('./modules/chat/calls.repo') as typeof import('./modules/chat/calls.repo');
    const change = event.data;
    await onCallWritten({ before: toCallRecord(change?.before), after: toCallRecord(change?.after) }, notificationHub(getConfig()));
  }),
);

// Changes of roles, the lock and admin permissions: one audit_log entry per event (at least once, deduplicated
// by the event id).
lazyExport('userAuditTrail', () =>
  firestoreTriggers().onDocumentUpdated({ document: 'users/{userId}', retry: true, secrets, memory: '256MiB', timeoutSeconds: 60 }, async (event) => {
    const { auditEntryFor, recordAudit } = require('./modules/users/users.triggers') as typeof import('./modules/users/users.triggers');
    const before = event.data?.before.data();
    const after = event.data?.after.data();
    await recordAudit(event.id, auditEntryFor(event.params.userId, before, after, Date.parse(event.time)));
  }),
);

// OTP and reset mails and texts (Cloud Tasks): sent here, not after the API's response, where the CPU
// may be throttled. A refused send is retried; decoys (anti-enumeration) are dropped.
let senders: import('./platform/delivery/delivery').Senders | undefined;
export const deliverMessage = onTaskDispatched<unknown>(
  { secrets, retryConfig: { maxAttempts: 5, minBackoffSeconds: 10 }, rateLimits: { maxConcurrentDispatches: 50 }, timeoutSeconds: 60, memory: '256MiB' },
  async (request) => {
    const { deliverQueued, queuedMessageSchema } = require('./platform/delivery/delivery') as typeof import('./platform/delivery/delivery');
    const parsed = queuedMessageSchema.safeParse(request.data);
    if (!parsed.success) {
      const { logger } = require('./platform/logging/logger') as typeof import('./platform/logging/logger');
      logger.error('dropped a malformed message task', { issues: parsed.error.issues.map((i) => i.path.join('.')) });
      return;
    }
    if (!senders) {
      const { createMailer } = require('./platform/mail/mailer') as typeof import('./platform/mail/mailer');
      const { createSmsSender } = require('./platform/sms/sms') as typeof import('./platform/sms/sms');
      senders = { mailer: createMailer(getConfig()), sms: createSmsSender(getConfig()) };
    }
    await deliverQueued(parsed.data, senders);
  },
);
