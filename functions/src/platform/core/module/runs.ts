import { randomUUID } from 'node:crypto';
import { SAFE_REQUEST_ID } from '../http/request-context';
import { countingCosts, withCostCounted } from '../deploy/cost-log';
import { logger, withLogFields } from '../logging/logger';

// How the Cloud Functions entry runs a task or trigger handler: every line it logs (services, repositories
// included) carries the run's id, as a request's lines carry its request id.

/**
 * The id of a task run: the Cloud Tasks task id (the queue's dedup id when we gave one), else a new one; with the
 * id of the request that enqueued it (platform/kits/tasks sends it as X-Request-Id), when there was one. That id is one
 * requestContext minted, never a client's: only Cloud Tasks, with the queue's service account, calls task functions.
 */
export function taskRunFields(
  functionName: string,
  taskId: string | undefined,
  headers?: Record<string, string | undefined>,
): Record<string, string> & { function: string; taskId: string } {
  const fields: Record<string, string> & { function: string; taskId: string } = {
    function: functionName,
    taskId: taskId && taskId.trim() !== '' ? taskId : randomUUID(),
  };
  const requestId = headers?.['x-request-id'] ?? headers?.['X-Request-Id'];
  if (requestId && SAFE_REQUEST_ID.test(requestId)) fields.requestId = requestId;
  return fields;
}

/** A trigger run is its event: a redelivery logs under the same id. */
export function triggerRunFields(functionName: string, eventId: string): { function: string; eventId: string } {
  return { function: functionName, eventId };
}

/**
 * Runs one delivery inside its log fields. A failure is logged here, mapped to the sources, and rethrown: the
 * platform retries it and logs the bundle's raw (minified) trace only.
 */
export async function runFunction(fields: { function: string } & Record<string, unknown>, work: () => Promise<unknown>): Promise<void> {
  await withLogFields(fields, async () => {
    try {
      if (countingCosts()) await withCostCounted(`${'eventId' in fields ? 'trigger' : 'task'}:${fields.function}`, work);
      else await work();
    } catch (err) {
      const { sourceMappedStack } = require('../logging/stack') as typeof import('../logging/stack');
      logger.error('function failed; it will be retried', {
        err: err instanceof Error ? { name: err.name, message: err.message, stack: sourceMappedStack(err.stack) } : String(err),
      });
      throw err;
    }
  });
}
