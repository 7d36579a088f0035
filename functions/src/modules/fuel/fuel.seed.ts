import type { SeedContext } from '../../platform/core/module/maintenance';
import { seedCatalog } from '../../platform/kits/catalog/catalog.seed';
import { fuelStations } from './fuel.catalog';

// Fuel stations managed by the demo partner (emulator only; the records of scripts/lib/demo-map.mjs).
export const seedFuel = (ctx: SeedContext): Promise<void> => seedCatalog(ctx, 'fuel stations', fuelStations(), 'DEMO_FUEL_STATIONS', 'PARTNER');
