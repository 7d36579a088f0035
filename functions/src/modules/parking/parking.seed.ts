import type { SeedContext } from '../../platform/core/module/maintenance';
import { seedCatalog } from '../../platform/kits/catalog/catalog.seed';
import { parkingLots } from './parking.catalog';

// Parking lots managed by the demo partner (emulator only; the records of scripts/lib/demo-map.mjs).
export const seedParking = (ctx: SeedContext): Promise<void> => seedCatalog(ctx, 'parking lots', parkingLots(), 'DEMO_PARKING_LOTS', 'PARTNER');
