import type { SeedContext } from '../../platform/core/module/maintenance';
import { seedPartnerCatalog } from '../../platform/kits/catalog/catalog.seed';
import { partnerCatalogDeps } from '../partners';
import { clinicsCatalog, SPECIALTIES } from './medical.catalog';

// The demo clinics and their doctors (emulator only) of the demo partner: fixed ids, so every seed writes the same
// documents. The doctors have no accounts of their own: the clinic's owner answers their appointments.

type Specialty = (typeof SPECIALTIES)[number];
// name, lat, lng, address, [doctor name, specialty, fee, minutes][]
type Row = [string, number, number, string, Array<[string, Specialty, number, 15 | 20 | 30 | 60]>];
const ROWS: Row[] = [
  [
    'Phòng khám Đa khoa Sài Gòn',
    10.7769,
    106.6953,
    '45 Nguyễn Thị Minh Khai, Quận 1, TP. Hồ Chí Minh',
    [
      ['BS. Nguyễn Văn An', 'GENERAL', 200_000, 20],
      ['BS. Trần Thị Bình', 'PEDIATRICS', 250_000, 20],
      ['BS. Lê Hoàng Cường', 'CARDIOLOGY', 400_000, 30],
    ],
  ],
  ['Nha khoa Nụ Cười', 10.7872, 106.6819, '210 Võ Thị Sáu, Quận 3, TP. Hồ Chí Minh', [['BS. Phạm Minh Đức', 'DENTISTRY', 300_000, 30]]],
  [
    'Phòng khám Hoàn Kiếm',
    21.0285,
    105.8542,
    '14 Tràng Thi, Hoàn Kiếm, Hà Nội',
    [
      ['BS. Vũ Thu Hà', 'DERMATOLOGY', 350_000, 15],
      ['BS. Đỗ Quang Huy', 'ENT', 300_000, 20],
    ],
  ],
  ['Phòng khám Nhi Đà Nẵng', 16.0544, 108.2022, '88 Hùng Vương, Hải Châu, Đà Nẵng', [['BS. Hồ Thị Lan', 'PEDIATRICS', 220_000, 20]]],
];

export const DEMO_CLINICS = ROWS.map(([name, lat, lng, address, doctors], i) => ({
  id: `seed-clinic-${String(i + 1).padStart(2, '0')}`,
  fields: { name, location: { lat, lng }, address, specialties: [...new Set(doctors.map((d) => d[1]))], insuranceAccepted: i % 2 === 0 },
  items: doctors.map(([doctorName, specialty, feeVnd, appointmentMinutes], j) => ({
    key: `bs_${j + 1}`,
    name: doctorName,
    specialty,
    feeVnd,
    appointmentMinutes,
    yearsOfPractice: 5 + j * 4,
  })),
}));

export const seedClinics = (ctx: SeedContext) => seedPartnerCatalog(ctx, 'clinics', clinicsCatalog, partnerCatalogDeps, DEMO_CLINICS);
