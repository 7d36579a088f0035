import { defineModule } from '../../platform/core/module/module';
import { PARTNER_MEMBERS, PARTNERS } from './partners.model';

export const partnersModule = defineModule({
  name: 'partners',
  uses: ['auth', 'kyc', 'media', 'users'],
  routes: (ctx) => (require('./partners.routes') as typeof import('./partners.routes')).partnersRoutes(ctx),
  collections: [{ name: PARTNERS }, { name: PARTNER_MEMBERS }],
});
