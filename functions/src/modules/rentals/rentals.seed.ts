import type { SeedContext } from '../../platform/core/module/maintenance';
import { seedPartnerCatalog } from '../../platform/kits/catalog/catalog.seed';
import { partnerCatalogDeps } from '../partners';
import { rentalsCatalog } from './rentals.catalog';

// The demo rental listings (emulator only) of the demo partner, around the seeded cities: fixed ids, so every seed
// writes the same documents. Viewing slots are free for the days ahead until someone books one.

// name, lat, lng, address, kind, rent, deposit, m², bedrooms
type Row = [string, number, number, string, 'APARTMENT' | 'ROOM' | 'HOUSE' | 'STUDIO', number, number, number, number];
const ROWS: Row[] = [
  ['Căn hộ 2PN Vinhomes Central Park', 10.7945, 106.7219, '208 Nguyễn Hữu Cảnh, Bình Thạnh, TP. Hồ Chí Minh', 'APARTMENT', 18_000_000, 36_000_000, 78, 2],
  ['Phòng trọ gần ĐH Bách Khoa', 10.7733, 106.6597, '15 Lý Thường Kiệt, Quận 10, TP. Hồ Chí Minh', 'ROOM', 3_500_000, 3_500_000, 20, 0],
  ['Studio Thảo Điền', 10.8042, 106.7351, '24 Xuân Thủy, Thảo Điền, TP. Thủ Đức', 'STUDIO', 9_000_000, 18_000_000, 35, 0],
  ['Nhà nguyên căn Ba Đình', 21.0359, 105.8342, '17 Đội Cấn, Ba Đình, Hà Nội', 'HOUSE', 25_000_000, 50_000_000, 120, 3],
  ['Căn hộ view sông Hàn', 16.0718, 108.2262, '36 Bạch Đằng, Hải Châu, Đà Nẵng', 'APARTMENT', 12_000_000, 24_000_000, 65, 2],
];

export const DEMO_LISTINGS = ROWS.map(([name, lat, lng, address, kind, monthlyRentVnd, depositVnd, areaM2, bedrooms], i) => ({
  id: `seed-rental-${String(i + 1).padStart(2, '0')}`,
  fields: {
    name,
    location: { lat, lng },
    address,
    kind,
    monthlyRentVnd,
    depositVnd,
    areaM2,
    bedrooms,
    bathrooms: Math.max(1, bedrooms),
    furnished: kind === 'ROOM' ? 'BASIC' : 'FULL',
    amenities: ['Máy lạnh', 'Wifi', ...(kind === 'APARTMENT' ? ['Hồ bơi', 'Gym'] : [])],
    minLeaseMonths: kind === 'ROOM' ? 6 : 12,
  },
}));

export const seedRentals = (ctx: SeedContext) => seedPartnerCatalog(ctx, 'rental listings', rentalsCatalog, partnerCatalogDeps, DEMO_LISTINGS);
