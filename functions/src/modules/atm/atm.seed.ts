import type { SeedContext } from '../../platform/core/module/maintenance';
import { seedCatalog } from '../../platform/kits/catalog/catalog.seed';
import { atms } from './atm.catalog';

// ATMs on the map tab, curated by the local administrator (emulator only; the records of scripts/lib/demo-map.mjs).
export const seedAtm = (ctx: SeedContext): Promise<void> => seedCatalog(ctx, 'ATMs', atms(), 'DEMO_ATMS', 'ADMIN');
