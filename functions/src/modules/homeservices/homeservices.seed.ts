import type { SeedContext } from '../../platform/core/module/maintenance';
import { seedPartnerCatalog } from '../../platform/kits/catalog/catalog.seed';
import { partnerCatalogDeps } from '../partners';
import { HOME_SERVICE_CATEGORIES, providersCatalog } from './homeservices.catalog';

// The demo home-service providers and their services (emulator only) of the demo partner: fixed ids, so every seed
// writes the same documents; every hour is free for the days ahead until someone books.

type Category = (typeof HOME_SERVICE_CATEGORIES)[number];
// name, lat, lng, address, coverage (m), teams, [service name, category, VND an hour, min h, max h][]
type Row = [string, number, number, string, number, number, Array<[string, Category, number, number, number]>];
const ROWS: Row[] = [
  [
    'Dọn Nhà Sạch Sài Gòn',
    10.7802,
    106.6991,
    '33 Pasteur, Quận 1, TP. Hồ Chí Minh',
    12_000,
    4,
    [
      ['Dọn nhà theo giờ', 'CLEANING', 90_000, 2, 6],
      ['Tổng vệ sinh', 'DEEP_CLEANING', 120_000, 4, 8],
    ],
  ],
  [
    'Điện Lạnh 24h',
    10.7626,
    106.6822,
    '150 Trần Hưng Đạo, Quận 5, TP. Hồ Chí Minh',
    15_000,
    3,
    [
      ['Vệ sinh máy lạnh', 'AIRCON', 150_000, 1, 3],
      ['Sửa máy giặt, tủ lạnh', 'APPLIANCE_REPAIR', 200_000, 1, 4],
    ],
  ],
  ['Thợ Điện Nước Hà Nội', 21.0136, 105.8469, '72 Bạch Mai, Hai Bà Trưng, Hà Nội', 10_000, 2, [['Sửa điện nước', 'PLUMBING', 180_000, 1, 4]]],
  ['Giúp Việc Đà Nẵng', 16.0471, 108.2068, '21 Nguyễn Văn Linh, Hải Châu, Đà Nẵng', 8_000, 2, [['Dọn nhà theo giờ', 'CLEANING', 80_000, 2, 6]]],
];

export const DEMO_PROVIDERS = ROWS.map(([name, lat, lng, address, coverageRadiusM, teams, services], i) => ({
  id: `seed-homeservice-${String(i + 1).padStart(2, '0')}`,
  fields: { name, location: { lat, lng }, address, categories: [...new Set(services.map((s) => s[1]))], coverageRadiusM, teams },
  items: services.map(([serviceName, category, pricePerHourVnd, minHours, maxHours], j) => ({
    key: `dv_${j + 1}`,
    name: serviceName,
    category,
    pricePerHourVnd,
    minHours,
    maxHours,
  })),
}));

export const seedHomeServices = (ctx: SeedContext) => seedPartnerCatalog(ctx, 'home-service providers', providersCatalog, partnerCatalogDeps, DEMO_PROVIDERS);
