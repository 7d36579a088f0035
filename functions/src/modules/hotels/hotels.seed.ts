import type { SeedContext } from '../../platform/core/module/maintenance';
import { seedPartnerCatalog } from '../../platform/kits/catalog/catalog.seed';
import { partnerCatalogDeps } from '../partners';
import { hotelsCatalog } from './hotels.catalog';

// The demo hotels (emulator only), run by the demo partner's owner through the kit's services on the seed's clock,
// each body validated by the API's own schema: fixed ids and rates, so every seed writes the same documents. Every
// room is free (no inventory document) for the days ahead until someone books.

type City = 'HO_CHI_MINH' | 'HA_NOI' | 'DA_NANG';
// name, city, lat, lng, address, stars, free cancellation (h), weekday double (VND)
type Row = [string, City, number, number, string, number, number, number];
const ROWS: Row[] = [
  ['Khách sạn Bến Thành Riverside', 'HO_CHI_MINH', 10.7718, 106.7049, '12 Tôn Đức Thắng, Quận 1, TP. Hồ Chí Minh', 4, 48, 1_450_000],
  ['Saigon Central Boutique', 'HO_CHI_MINH', 10.7765, 106.7003, '58 Lê Lợi, Quận 1, TP. Hồ Chí Minh', 3, 24, 850_000],
  ['Nhà nghỉ Phạm Ngũ Lão', 'HO_CHI_MINH', 10.7681, 106.6926, '203 Phạm Ngũ Lão, Quận 1, TP. Hồ Chí Minh', 2, 12, 420_000],
  ['Thảo Điền Garden Hotel', 'HO_CHI_MINH', 10.8031, 106.7372, '15 Quốc Hương, Thảo Điền, TP. Thủ Đức', 4, 72, 1_900_000],
  ['Khách sạn Phố Cổ Hà Nội', 'HA_NOI', 21.0341, 105.8511, '22 Hàng Bạc, Hoàn Kiếm, Hà Nội', 3, 24, 950_000],
  ['Hồ Gươm Heritage', 'HA_NOI', 21.0287, 105.8523, '6 Đinh Tiên Hoàng, Hoàn Kiếm, Hà Nội', 5, 72, 3_200_000],
  ['Tây Hồ Lakeside Inn', 'HA_NOI', 21.0583, 105.8261, '48 Quảng An, Tây Hồ, Hà Nội', 3, 48, 1_100_000],
  ['Mỹ Khê Beach Hotel', 'DA_NANG', 16.0614, 108.2466, '120 Võ Nguyên Giáp, Sơn Trà, Đà Nẵng', 4, 48, 1_600_000],
];

/** Vietnamese public holidays of the demo year and the next (priced at the holiday rate). */
const HOLIDAYS = ['2026-04-30', '2026-05-01', '2026-09-02', '2027-01-01', '2027-02-05', '2027-02-06', '2027-02-07', '2027-04-30', '2027-05-01', '2027-09-02'];

export const DEMO_HOTELS = ROWS.map(([name, city, lat, lng, address, stars, freeUntilHours, weekday], i) => ({
  id: `seed-hotel-${String(i + 1).padStart(2, '0')}`,
  fields: {
    name,
    location: { lat, lng },
    address,
    city,
    stars,
    checkInFrom: '14:00',
    checkOutBy: '12:00',
    amenities: ['Wifi', 'Điều hòa', ...(stars >= 4 ? ['Hồ bơi', 'Bữa sáng'] : [])],
    cancellation: { freeUntilHours, lateFeeBp: 5_000 },
    holidays: HOLIDAYS,
  },
  rooms: [
    { key: 'standard_double', name: 'Standard Double', rooms: 8, maxGuests: 2, beds: [{ type: 'DOUBLE', count: 1 }], rates: { weekdayVnd: weekday } },
    {
      key: 'deluxe_twin',
      name: 'Deluxe Twin',
      rooms: 5,
      maxGuests: 2,
      beds: [{ type: 'TWIN', count: 2 }],
      areaM2: 28,
      rates: { weekdayVnd: Math.round(weekday * 1.3), weekendVnd: Math.round(weekday * 1.6), holidayVnd: weekday * 2 },
    },
    {
      key: 'family_suite',
      name: 'Family Suite',
      rooms: 2,
      maxGuests: 4,
      beds: [
        { type: 'KING', count: 1 },
        { type: 'SINGLE', count: 2 },
      ],
      areaM2: 45,
      amenities: ['Bồn tắm', 'Ban công'],
      rates: { weekdayVnd: weekday * 2, weekendVnd: Math.round(weekday * 2.4), holidayVnd: weekday * 3 },
    },
  ],
}));

export async function seedHotels(ctx: SeedContext): Promise<void> {
  const rows = DEMO_HOTELS.map(({ id, fields, rooms }) => ({ id, fields, items: rooms }));
  await seedPartnerCatalog(ctx, 'hotels', hotelsCatalog, partnerCatalogDeps, rows);
}
