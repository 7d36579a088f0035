// Structured logs through firebase-functions' logger (Cloud Logging severity + JSON payload).
// Required lazily: the logger module is small, but tests and scripts may replace the sink.
import type { LogEntry } from 'firebase-functions/logger';

type Fields = Record<string, unknown>;
type Severity = 'debug' | 'info' | 'warn' | 'error';

let sink: ((entry: LogEntry) => void) | undefined;

function write(severity: Severity, message: string, fields: Fields = {}): void {
  sink ??= (require('firebase-functions/logger') as typeof import('firebase-functions/logger')).write;
  const level = severity === 'warn' ? 'WARNING' : (severity.toUpperCase() as LogEntry['severity']);
  sink({ severity: level, message, ...fields });
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
