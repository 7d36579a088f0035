import cors from 'cors';
import type { RequestHandler } from 'express';

// Browsers (admin dashboard) are allowed from CORS_ORIGINS only; native apps send no Origin.
export function corsFromOrigins(origins: readonly string[]): RequestHandler {
  const allowAll = origins.includes('*');
  const handler = cors({
    origin: allowAll ? true : (origin, done) => done(null, origin !== undefined && origins.includes(origin)),
    credentials: !allowAll,
    exposedHeaders: ['X-Request-Id', 'Retry-After', 'RateLimit', 'RateLimit-Policy'],
    maxAge: 600,
  });
  // Requests without an Origin (native apps, servers) need no CORS work.
  return (req, res, next) => (req.headers.origin === undefined ? next() : handler(req, res, next));
}
