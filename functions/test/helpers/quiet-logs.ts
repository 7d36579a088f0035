import { setLogSink } from '../../src/platform/core/logging/logger';

// Unit tests assert on log entries where they matter; the rest stay off the console.
setLogSink(() => undefined);
