import { defineModule } from '../../platform/core/module/module';
import { AUDIT_LOG, USER_EMAILS, USER_PHONES, USERS } from './users.model';

export const usersModule = defineModule({
  name: 'users',
  uses: [],
  apiTags: { users: 'Profiles, hats and administration of users and roles.' },
  seed: { load: () => (require('./users.seed') as typeof import('./users.seed')).seedUsers },
  routes: (ctx) => (require('./users.routes') as typeof import('./users.routes')).usersRoutes(ctx),
  triggers: {
    // Changes of roles, the lock and admin permissions: one audit_log entry per event (at least once,
    // deduplicated by the event id).
    userAuditTrail: {
      document: `${USERS}/{userId}`,
      on: 'updated',
      load: () => (require('./users.triggers') as typeof import('./users.triggers')).onUserDocumentUpdated,
    },
  },
  // The rules read accounts (liveSession()); clients never do.
  collections: [{ name: USERS }, { name: USER_EMAILS }, { name: USER_PHONES }, { name: AUDIT_LOG }],
});
