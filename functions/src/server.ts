// Plain node server around the same app: benchmarks, local debugging and Cloud Run.
import { createApp } from './app';
import { logger } from './platform/core/logging/logger';

const port = Number(process.env.PORT ?? 8081);
const host = process.env.HOST ?? '127.0.0.1';
const server = createApp().listen(port, host, () => {
  logger.info('listening', { url: `http://${host}:${port}` });
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => server.close(() => process.exit(0)));
}
