import { defineModule } from '../../platform/core/module/module';
import { AUTH_ERROR_CODES } from './auth.errors';
import { AUTH_EVENTS } from './auth.events';
import { AUTH_DAILY_SENDS, AUTH_FAILURES, AUTH_LOCKS, AUTH_OTPS, AUTH_SESSIONS, OTP_USES, USER_IDENTITIES } from './auth.model';
import { authSwitches } from './auth.config';

const ttl = 'expireAt';

export const authModule = defineModule({
  name: 'auth',
  uses: ['kyc', 'notifications', 'users'],
  apiTags: { auth: 'Registration, OTP (email and phone), password and two-factor login, tokens, sessions, Google sign-in and password recovery.' },
  config: authSwitches,
  errorCodes: AUTH_ERROR_CODES,
  events: AUTH_EVENTS.rows,
  routes: (ctx) => (require('./auth.routes') as typeof import('./auth.routes')).authRoutes(ctx),
  collections: [
    // The rules read sessions (liveSession()); clients never do.
    { name: AUTH_SESSIONS, ttlField: ttl },
    { name: AUTH_OTPS, ttlField: ttl },
    { name: OTP_USES, parent: AUTH_OTPS, ttlField: ttl },
    { name: AUTH_FAILURES, ttlField: ttl },
    { name: AUTH_DAILY_SENDS, ttlField: ttl },
    { name: AUTH_LOCKS, ttlField: ttl },
    { name: USER_IDENTITIES },
  ],
});
