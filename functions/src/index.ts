// Cloud Functions entry: the HTTPS function `api`, every module's task functions and Firestore triggers,
// and the message queue's `deliverMessage`.
// Kept light on purpose: Express, the routes and firebase-admin load on the first request.
import type { Express } from 'express';
import { onRequest } from 'firebase-functions/https';
import { onTaskDispatched } from 'firebase-functions/tasks';
import { defineSecret } from 'firebase-functions/params';
import { setGlobalOptions } from 'firebase-functions/options';
import { getConfig } from './platform/core/config/config';
import { installSwitches } from './platform/core/config/module-switches';
import { MODULE_SWITCHES } from './module-switches.generated';
import { API_CONCURRENCY, API_TIMEOUT_SECONDS, WORKER_CONCURRENCY, declaredSecrets, functionsRegion, instanceLimits } from './platform/core/deploy/settings';
import type { TaskDefinition, TriggerDefinition } from './platform/core/module/module';
import { platformTasks } from './platform/core/module/platform-tasks';
import { groupTriggers, runGroup, type TriggerGroup } from './platform/core/module/trigger-groups';

// Every function below (HTTPS, tasks, triggers) runs in the one configured region, with a ceiling on instances
// and a set concurrency (the `api` function overrides both).
const maxInstances = instanceLimits();
setGlobalOptions({ region: functionsRegion(), maxInstances: maxInstances.others, concurrency: WORKER_CONCURRENCY });

// Every function binds the declared secrets: the configuration (validated at boot) reads them.
const secrets = declaredSecrets().map((name) => defineSecret(name));

const loadModules = () => (require('./modules') as typeof import('./modules')).MODULES;

// The configuration is the platform's switches and every module's fragment: installed here from the generated list
// (the fragments alone, ~0.1 ms), so that validating it does not load the module definitions (~5 ms).
installSwitches(MODULE_SWITCHES);

// Deploy-time discovery loads this file without secrets: validate at cold start of a real instance only.
const discoveringFunctions = process.env.FUNCTIONS_CONTROL_API === 'true';
if (!discoveringFunctions) getConfig(); // throws ConfigError: the instance refuses to boot

// npm test: triggers and tasks in the Functions emulator record their query shapes too (deploy:check).
if (process.env.FIRESTORE_QUERY_LOG)
  (require('./platform/core/deploy/query-log') as typeof import('./platform/core/deploy/query-log')).recordQueriesTo(process.env.FIRESTORE_QUERY_LOG);
// npm test: and what each of their runs costs in Firestore reads and writes (the cost budgets).
if (process.env.FIRESTORE_COST_LOG)
  (require('./platform/core/deploy/cost-log') as typeof import('./platform/core/deploy/cost-log')).recordCostsTo(process.env.FIRESTORE_COST_LOG);

let app: Express | undefined;
// V8's pretenuring off before the app is built and the requests come (platform/core/deploy/v8-tuning.ts says why;
// on the first request, not at load: loading `node:v8` costs the cold start 1-4 ms).
function firstApp(): Express {
  (require('./platform/core/deploy/v8-tuning') as typeof import('./platform/core/deploy/v8-tuning')).tuneV8();
  return (require('./app') as typeof import('./app')).createApp();
}

export const api = onRequest(
  { secrets, invoker: 'public', memory: '512MiB', timeoutSeconds: API_TIMEOUT_SECONDS, concurrency: API_CONCURRENCY, maxInstances: maxInstances.api },
  (req, res) => {
    app ??= firstApp();
    app(req, res);
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

// Task and trigger runs: their log lines carry the run's id (platform/core/module/runs), failures mapped to the sources.
const deliveries = () => require('./platform/core/module/runs') as typeof import('./platform/core/module/runs');

type Snapshot = { id: string; exists: boolean; data(): Record<string, unknown> | undefined };
const side = (snap: Snapshot | undefined) => (snap?.exists ? { id: snap.id, data: snap.data() ?? {} } : undefined);

// A group of handlers on one document path as a Cloud Functions trigger (platform/core/module/trigger-groups): retried
// on failure. Each handler the change concerns runs under its own name, side by side with the others; one that fails
// does not keep the others from ending, and fails the delivery after them.
function firestoreTrigger(group: TriggerGroup) {
  const triggers = firestoreTriggers();
  const options = { document: group.document, retry: true, secrets, ...group.options } as const;
  const loaded = new Map<string, ReturnType<TriggerDefinition['load']>>();
  const run = async (event: { id: string; time: string; params: Record<string, string> }, before: Snapshot | undefined, after: Snapshot | undefined) => {
    const { runFunction, triggerRunFields } = deliveries();
    const change = { id: event.id, time: event.time, params: event.params, before: side(before), after: side(after) };
    // A handler's code loads inside its run: a load that throws fails that handler (logged as such), not the others.
    await runGroup(group, change, ({ name, trigger }) =>
      runFunction(triggerRunFields(name, event.id), () => {
        let handler = loaded.get(name);
        if (!handler) loaded.set(name, (handler = trigger.load()));
        return handler(change, getConfig());
      }),
    );
  };
  switch (group.on) {
    case 'created':
      return triggers.onDocumentCreated(options, (event) => run(event, undefined, event.data));
    case 'deleted':
      return triggers.onDocumentDeleted(options, (event) => run(event, event.data, undefined));
    case 'updated':
      return triggers.onDocumentUpdated(options, (event) => run(event, event.data?.before, event.data?.after));
    case 'written':
      return triggers.onDocumentWritten(options, (event) => run(event, event.data?.before, event.data?.after));
  }
}

// A task function consumes the Cloud Tasks queue of its name: the payload is checked, then the handler (loaded on
// the first task) runs inside the run's log fields.
function exportTask(name: string, task: TaskDefinition<never>): void {
  let handler: ReturnType<typeof task.load> | undefined;
  // module.exports, not `exports`: in the bundle, module.exports is replaced by the ES exports object.
  (module.exports as Record<string, unknown>)[name] = onTaskDispatched<unknown>({ secrets, ...task.options }, async (request) => {
    const { runFunction, taskRunFields } = deliveries();
    await runFunction(taskRunFields(name, request.id, request.headers), async () => {
      const parsed = task.queue.payload.safeParse(request.data);
      if (!parsed.success) {
        // Dropped, not retried: no redelivery makes a malformed payload valid.
        const { logger } = require('./platform/core/logging/logger') as typeof import('./platform/core/logging/logger');
        logger.error('dropped a malformed task', { queue: name, issues: parsed.error.issues.map((i) => i.path.join('.')) });
        return;
      }
      handler ??= task.load();
      await handler(parsed.data as never, getConfig());
    });
  });
}

// Every module's task functions and Firestore triggers, from the one module list, and the platform's own tasks
// (`deliverMessage`: OTP and reset mails and texts, sent here rather than after the API's response, where the CPU
// may be throttled). Definitions are light; a handler's code loads on its first delivery.
// An instance serves one function (FUNCTION_TARGET): the `api` instance skips them all, the `deliverMessage` one
// the module definitions; discovery (no target) and task or trigger instances read them.
const target = process.env.FUNCTION_TARGET;
const needsModuleFunctions = !target || (target !== 'api' && target !== 'deliverMessage');
for (const [name, task] of Object.entries(target === 'api' ? {} : platformTasks())) exportTask(name, task);
const modules = needsModuleFunctions ? loadModules() : [];
for (const definition of modules) for (const [name, task] of Object.entries(definition.tasks ?? {})) exportTask(name, task);
for (const group of groupTriggers(modules)) lazyExport(group.name, () => firestoreTrigger(group));
