import { defineModule } from '../../platform/core/module/module';
import { cellIndexCollection } from '../../platform/kits/firestore/collections';
import { EVENTS } from '../../platform/kits/state-machine/state-machine';
import { PHARMACY_PRODUCTS, PHARMACY_STORES } from './pharmacy.collections';

// Pharmacy stores (a catalog of the platform kit) and the products each has in stock.
export const pharmacyModule = defineModule({
  name: 'pharmacy',
  uses: ['partners'],
  apiTags: { pharmacy: 'Pharmacies and pharmacy stores nearby.' },
  seed: { load: () => (require('./pharmacy.seed') as typeof import('./pharmacy.seed')).seedPharmacy },
  targets: [{ type: 'PHARMACY_STORE', load: () => (require('./index') as typeof import('./index')).pharmacyStoresService() }],
  promotionVerticals: ['PHARMACY'],
  routes: (ctx) => (require('./pharmacy.catalog') as typeof import('./pharmacy.catalog')).pharmacy.routes(ctx),
  collections: [{ name: PHARMACY_STORES }, { name: EVENTS, parent: PHARMACY_STORES }, cellIndexCollection(PHARMACY_STORES), { name: PHARMACY_PRODUCTS }],
});
