import { defineModule } from '../../platform/core/module/module';
import { cellIndexCollection } from '../../platform/kits/firestore/collections';
import { EVENTS } from '../../platform/kits/state-machine/state-machine';
import { MERCHANT_ITEMS, MERCHANTS } from './merchants.collections';
import { MERCHANTS_ERROR_CODES } from './merchants.errors';

// Merchants (a catalog of the platform kit): a partner's stores that take orders, their menus, and the sellers face
// checkout and orders use (index.ts).
export const merchantsModule = defineModule({
  name: 'merchants',
  uses: ['partners', 'pharmacy'],
  apiTags: { merchants: 'Merchants (food and grocery) and their menus.' },
  seed: { load: () => (require('./merchants.seed') as typeof import('./merchants.seed')).seedMerchants },
  errorCodes: MERCHANTS_ERROR_CODES,
  targets: [{ type: 'MERCHANT', load: () => (require('./index') as typeof import('./index')).merchantsCatalogService() }],
  routes: (ctx) => (require('./merchants.catalog') as typeof import('./merchants.catalog')).merchants.routes(ctx),
  collections: [{ name: MERCHANTS }, { name: EVENTS, parent: MERCHANTS }, cellIndexCollection(MERCHANTS), { name: MERCHANT_ITEMS }],
});
