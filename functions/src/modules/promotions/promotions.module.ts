import { defineModule } from '../../platform/core/module/module';
import { PROMOTION_ERROR_CODES } from './promotions.errors';
import { PROMOTION_CODES, PROMOTION_REDEMPTIONS, PROMOTION_SHARDS, PROMOTION_USAGE, PROMOTIONS } from './promotions.model';

// Vouchers: platform and partner promotions, validation and redemption within their limits.
export const promotionsModule = defineModule({
  name: 'promotions',
  uses: ['partners', 'rides'],
  apiTags: { promotions: 'Promotions, vouchers and their redemption.' },
  seed: { load: () => (require('./promotions.seed') as typeof import('./promotions.seed')).seedPromotions },
  errorCodes: PROMOTION_ERROR_CODES,
  // BOOKING waits for its module (the spec's vertical); each vertical's module claims its own.
  promotionVerticals: ['BOOKING'],
  permissions: ['promotions.manage'],
  routes: (ctx) => (require('./promotions.routes') as typeof import('./promotions.routes')).promotionsRoutes(ctx),
  collections: [
    { name: PROMOTIONS },
    { name: PROMOTION_SHARDS, parent: PROMOTIONS },
    { name: PROMOTION_CODES },
    { name: PROMOTION_USAGE },
    { name: PROMOTION_REDEMPTIONS },
  ],
});
