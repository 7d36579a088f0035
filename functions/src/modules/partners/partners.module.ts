import { defineModule } from '../../platform/core/module/module';
import { PARTNER_MEMBERS, PARTNERS } from './partners.model';

export const partnersModule = defineModule({
  name: 'partners',
  uses: ['auth', 'kyc', 'media', 'users'],
  apiTags: { partners: 'Partner businesses, partner applications and staff.' },
  seed: { load: () => (require('./partners.seed') as typeof import('./partners.seed')).seedPartners },
  routes: (ctx) => (require('./partners.routes') as typeof import('./partners.routes')).partnersRoutes(ctx),
  collections: [{ name: PARTNERS }, { name: PARTNER_MEMBERS }],
});
