import type { AppConfig } from '../config';
import type { AccessTokenVerifier } from '../auth/access-token';
import type { RateLimiter } from '../ratelimit/rate-limit';
import type { IdempotencyStore } from '../../kits/idempotency/idempotency';
import type { AnyRoute } from './route';

// What every feature module receives when the app is built.
export interface AppContext {
  config: Readonly<AppConfig>;
  verifyAccessToken: AccessTokenVerifier;
  rateLimiter: RateLimiter;
  idempotency: IdempotencyStore;
}

/** The part of a module definition (platform/core/module) the HTTP app uses. */
export interface ApiModule {
  name: string;
  routes?(ctx: AppContext): AnyRoute[];
}
