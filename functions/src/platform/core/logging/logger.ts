// Structured logs through firebase-functions' logger (Cloud Logging severity + JSON payload).
// Required lazily: the logger module is small, but tests and scripts may replace the sink.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { LogEntry } from 'firebase-functions/logger';

type Fields = Record<string, unknown>;
type Severity = 'debug' | 'info' | 'warn' | 'error';

let sink: ((entry: LogEntry) => void) | undefined;

// The fields of the run a line is written in (a request's id, a task's, a trigger event's), carried across awaits:
// services and repositories log without knowing which request or delivery they serve.
const runFields = new AsyncLocalStorage<Readonly<Fields>>();

/** Runs `work` with `fields` on every log line written inside it (nested runs add to the outer run's fields). */
export function withLogFields<T>(fields: Fields, work: () => T): T {
  const outer = runFields.getStore();
  return runFields.run(outer ? { ...outer, ...fields } : fields, work);
}

/** The fields of the current run, if any (e.g. to hand a request id on to a task). */
export function currentLogFields(): Readonly<Fields> | undefined {
  return runFields.getStore();
}

function write(severity: Severity, message: string, fields: Fields = {}): void {
  sink ??= (require('firebase-functions/logger') as typeof import('firebase-functions/logger')).write;
  const level = severity === 'warn' ? 'WARNING' : (severity.toUpperCase() as LogEntry['severity']);
  sink({ severity: level, message, ...runFields.getStore(), ...fields });
}

export const logger = {
  debug: (message: string, fields?: Fields) => write('debug', message, fields),
  info: (message: string, fields?: Fields) => write('info', message, fields),
  warn: (message: string, fields?: Fields) => write('warn', message, fields),
  error: (message: string, fields?: Fields) => write('error', message, fields),
};

// Tests capture log entries instead of printing them.
export function setLogSink(next: ((entry: LogEntry) => void) | undefined): void {
  sink = next;
}
