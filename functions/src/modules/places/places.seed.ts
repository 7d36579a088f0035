import type { SeedContext } from '../../platform/core/module/maintenance';
import { seedCatalog } from '../../platform/kits/catalog/catalog.seed';
import { placesService } from './places.catalog';

// Places on the map tab, curated by the local administrator (emulator only; the records of scripts/lib/demo-map.mjs).
export const seedPlaces = (ctx: SeedContext): Promise<void> => seedCatalog(ctx, 'places', placesService(), 'DEMO_PLACES', 'ADMIN');
