import { createJwtAccessTokenVerifier } from '../auth/access-token';
import type { ApiModule } from '../http/module';
import { createRateLimiter, memoryRateLimitStore } from '../ratelimit/rate-limit';
import { memoryIdempotencyStore } from '../../kits/idempotency/idempotency';
import { parseConfig } from '../config/config';
import { API_VERSION } from '../../../version';
import { buildOpenApiDocument } from './document';

// The checked-in openapi/openapi.json: independent of the local environment (every route is
// documented whatever switches hide it), so the file only changes when the API does.
export function renderOpenApiJson(modules: readonly ApiModule[]): string {
  const config = parseConfig({ JWT_SECRET: 'openapi-render', JWT_REFRESH_SECRET: 'openapi-render-refresh' });
  const ctx = {
    config,
    verifyAccessToken: createJwtAccessTokenVerifier(config.JWT_SECRET),
    rateLimiter: createRateLimiter(memoryRateLimitStore()),
    idempotency: memoryIdempotencyStore(),
  };
  const routes = modules.flatMap((m) => m.routes?.(ctx) ?? []);
  return `${JSON.stringify(buildOpenApiDocument(routes, API_VERSION), null, 2)}\n`;
}
