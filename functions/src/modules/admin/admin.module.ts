import { defineModule } from '../../platform/core/module/module';
import { ADMIN_ERROR_CODES } from './admin.errors';

// User administration (overview, list, create, patch, roles, lock): composition over the users, auth, driver
// and kyc modules' public faces. It owns no collection.
export const adminModule = defineModule({
  name: 'admin',
  uses: ['auth', 'driver', 'kyc', 'users'],
  errorCodes: ADMIN_ERROR_CODES,
  permissions: ['users.manage'],
  routes: (ctx) => (require('./admin.routes') as typeof import('./admin.routes')).adminRoutes(ctx),
});
