import { defineModule } from '../../platform/core/module/module';
import { cellIndexCollection } from '../../platform/kits/firestore/collections';
import { EVENTS } from '../../platform/kits/state-machine/state-machine';
import { ATMS } from './atm.collections';

// ATMs (a catalog of the platform kit) by bank, 24h and deposit.
export const atmModule = defineModule({
  name: 'atm',
  uses: ['partners'],
  apiTags: { atm: 'Nearby ATMs and their services.' },
  seed: { load: () => (require('./atm.seed') as typeof import('./atm.seed')).seedAtm },
  targets: [{ type: 'ATM', load: () => (require('./index') as typeof import('./index')).atmsService() }],
  routes: (ctx) => (require('./atm.catalog') as typeof import('./atm.catalog')).atm.routes(ctx),
  collections: [{ name: ATMS }, { name: EVENTS, parent: ATMS }, cellIndexCollection(ATMS)],
});
