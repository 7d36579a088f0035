import { defineModule, defineTask } from '../../platform/core/module/module';
import { EVENTS } from '../../platform/kits/state-machine/state-machine';
import { INCIDENT_MONITOR_QUEUE, STATUS_INCIDENTS } from './status.collections';
import { STATUS_ERROR_CODES } from './status.errors';

// The platform's status page: the state of each dependency and the incidents administrators open, follow and resolve
// (lifecycle shape: docs/adding-a-module.md). No events: the spec's event table has no status rows.
export const statusModule = defineModule({
  name: 'status',
  uses: [],
  errorCodes: STATUS_ERROR_CODES,
  permissions: ['status.manage'],
  routes: () => (require('./status.routes') as typeof import('./status.routes')).statusRoutes(),
  tasks: {
    incidentMonitorEnd: defineTask({
      queue: INCIDENT_MONITOR_QUEUE,
      options: {
        retryConfig: { maxAttempts: 20, minBackoffSeconds: 60, maxBackoffSeconds: 900 },
        rateLimits: { maxConcurrentDispatches: 10 },
        timeoutSeconds: 60,
        memory: '256MiB',
      },
      load: () => (require('./status.tasks') as typeof import('./status.tasks')).onIncidentMonitorEnd,
    }),
  },
  triggers: {
    incidentStatusChanged: {
      document: `${STATUS_INCIDENTS}/{incidentId}`,
      on: 'written',
      load: () => (require('./status.triggers') as typeof import('./status.triggers')).onIncidentWritten,
    },
  },
  collections: [{ name: STATUS_INCIDENTS }, { name: EVENTS, parent: STATUS_INCIDENTS }],
});
