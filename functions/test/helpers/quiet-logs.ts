import { setLogSink } from '../../src/platform/logging/logger';

// Unit tests assert on log entries where they matter; the rest stay off the console.
setLogSink(() => undefined);
