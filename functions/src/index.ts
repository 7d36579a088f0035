// Cloud Functions entry: the HTTPS function `api` and the Firestore triggers.
// Kept light on purpose: Express, the routes and firebase-admin load on the first request.
import type { Express } from 'express';
import { onRequest } from 'firebase-functions/https';
import { onTaskDispatched } from 'firebase-functions/tasks';
import { defineSecret } from 'firebase-functions/params';
import { getConfig } from './platform/config/config';

const jwtSecret = defineSecret('JWT_SECRET');
const jwtRefreshSecret = defineSecret('JWT_REFRESH_SECRET');

// Deploy-time discovery loads this file without secrets: validate at cold start of a real instance only.
const discoveringFunctions = process.env.FUNCTIONS_CONTROL_API === 'true';
if (!discoveringFunctions) getConfig(); // throws ConfigError: the instance refuses to boot

let app: Express | undefined;

export const api = onRequest(
  { secrets: [jwtSecret, jwtRefreshSecret], invoker: 'public', memory: '512MiB', timeoutSeconds: 60, concurrency: 80 },
  (req, res) => {
    app ??= (require('./app') as typeof import('./app')).createApp();
    app(req, res);
  },
);

// Ring timeout of calls (Cloud Tasks): settles a still-ringing call as MISSED. Retried on failure; idempotent.
export const callRingTimeout = onTaskDispatched<{ callId?: string }>(
  { retryConfig: { maxAttempts: 5, minBackoffSeconds: 5 }, rateLimits: { maxConcurrentDispatches: 100 }, timeoutSeconds: 120, memory: '256MiB' },
  async (request) => {
    const callId = request.data?.callId;
    if (typeof callId !== 'string' || callId.length === 0) return;
    const { callsServiceFor, handleRingTimeout } = require('./modules/chat/calls.tasks') as typeof import('./modules/chat/calls.tasks');
    const { ringingUntil } = require('./modules/chat/calls.repo') as typeof import('./modules/chat/calls.repo');
    await handleRingTimeout(callId, { ringingUntil, settle: (id) => callsServiceFor(getConfig()).timeout(id) });
  },
);
