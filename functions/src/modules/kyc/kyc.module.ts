import { defineModule } from '../../platform/core/module/module';
import { KYC_ERROR_CODES } from './kyc.errors';
import { EVENTS } from '../../platform/kits/state-machine/state-machine';
import { APPLICATIONS, KYC_PAPERS, PENDING_APPLICATIONS } from './applications.model';
import { kycSwitches } from './kyc.config';

export const kycModule = defineModule({
  name: 'kyc',
  uses: ['users'],
  apiTags: { kyc: 'Identity papers (images, PDF) submitted for driver and partner applications.' },
  config: kycSwitches,
  errorCodes: KYC_ERROR_CODES,
  permissions: ['applications.review', 'kyc.read'],
  routes: (ctx) => (require('./kyc.routes') as typeof import('./kyc.routes')).kycRoutes(ctx),
  collections: [{ name: APPLICATIONS }, { name: EVENTS, parent: APPLICATIONS }, { name: KYC_PAPERS }, { name: PENDING_APPLICATIONS, ttlField: 'expireAt' }],
});
