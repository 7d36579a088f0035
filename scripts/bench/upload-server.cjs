// The API in its own process for P7 (upload memory): the full app (multipart streaming, local storage,
// Firestore emulator for the records), JWT-only auth. Reports its peak RSS (VmHWM) when asked.
const fs = require('node:fs');
const path = require('node:path');

const functionsDir = path.join(__dirname, '..', '..', 'functions');
const lib = (p) => require(path.join(functionsDir, 'lib', p));
const { buildApp } = lib('app.js');
const { parseConfig } = lib('platform/core/config/index.js');
const { createJwtAccessTokenVerifier } = lib('platform/core/auth/access-token.js');
const { createRateLimiter, memoryRateLimitStore } = lib('platform/core/ratelimit/rate-limit.js');

const config = parseConfig({ ...process.env, STORAGE_DRIVER: 'local', LOG_REQUESTS: 'false' });
const { app } = buildApp({ config, verifyAccessToken: createJwtAccessTokenVerifier(config.JWT_SECRET), rateLimiter: createRateLimiter(memoryRateLimitStore()) });
const peakRss = () => Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) * 1024;

const server = app.listen(0, '127.0.0.1', () => process.send({ port: server.address().port, rss: process.memoryUsage().rss }));
process.on('message', (msg) => {
  if (msg === 'peak') process.send({ peakRss: peakRss(), rss: process.memoryUsage().rss });
  if (msg === 'stop') server.close(() => process.exit(0));
});
