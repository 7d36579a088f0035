import type { AppConfig } from '../config';
import type { AccessTokenVerifier } from '../auth/access-token';
import type { RateLimiter } from '../ratelimit/rate-limit';
import type { AnyRoute } from './route';

// What every feature module receives when the app is built.
export interface AppContext {
  config: Readonly<AppConfig>;
  verifyAccessToken: AccessTokenVerifier;
  rateLimiter: RateLimiter;
}

export interface ApiModule {
  name: string;
  routes(ctx: AppContext): AnyRoute[];
}
