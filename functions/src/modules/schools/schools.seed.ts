import type { SeedContext } from '../../platform/core/module/maintenance';
import { seedPartnerCatalog } from '../../platform/kits/catalog/catalog.seed';
import { partnerCatalogDeps } from '../partners';
import { SCHOOL_LEVELS, schoolsCatalog } from './schools.catalog';

// The demo schools and their programs (emulator only) of the demo partner: fixed ids, so every seed writes the same
// documents; consultation slots are free for the days ahead until someone books one.

type Level = (typeof SCHOOL_LEVELS)[number];
// name, lat, lng, address, curriculum, school trips, [program name, level, ages, language, tuition][]
type Row = [
  string,
  number,
  number,
  string,
  'NATIONAL' | 'BILINGUAL' | 'INTERNATIONAL',
  boolean,
  Array<[string, Level, [number, number], 'vi' | 'en' | 'bilingual', number]>,
];
const ROWS: Row[] = [
  [
    'Trường Tiểu học Ánh Dương',
    10.7891,
    106.6952,
    '120 Nguyễn Đình Chiểu, Quận 3, TP. Hồ Chí Minh',
    'BILINGUAL',
    true,
    [
      ['Lớp 1 song ngữ', 'PRIMARY', [6, 7], 'bilingual', 6_500_000],
      ['Lớp 2–5 song ngữ', 'PRIMARY', [7, 11], 'bilingual', 7_000_000],
    ],
  ],
  ['Mầm non Hoa Sen', 10.8012, 106.7144, '9 Phan Văn Trị, Bình Thạnh, TP. Hồ Chí Minh', 'NATIONAL', true, [['Lớp Mầm', 'PRESCHOOL', [3, 4], 'vi', 3_800_000]]],
  [
    'Trường Quốc tế Hà Nội Xanh',
    21.0675,
    105.8089,
    '2 Võ Chí Công, Tây Hồ, Hà Nội',
    'INTERNATIONAL',
    false,
    [['Cambridge Lower Secondary', 'LOWER_SECONDARY', [11, 14], 'en', 28_000_000]],
  ],
  ['Anh ngữ Biển Xanh', 16.0608, 108.2209, '56 Lê Duẩn, Hải Châu, Đà Nẵng', 'NATIONAL', false, [['IELTS 6.5+', 'LANGUAGE_CENTRE', [15, 30], 'en', 4_200_000]]],
];

export const DEMO_SCHOOLS = ROWS.map(([name, lat, lng, address, curriculum, schoolTrips, programs], i) => ({
  id: `seed-school-${String(i + 1).padStart(2, '0')}`,
  fields: {
    name,
    location: { lat, lng },
    address,
    levels: [...new Set(programs.map((p) => p[1]))],
    curriculum,
    consultationMinutes: 30,
    consultationDesks: 2,
    schoolTrips,
  },
  items: programs.map(([programName, level, [ageFrom, ageTo], language, tuitionVndPerMonth], j) => ({
    key: `ct_${j + 1}`,
    name: programName,
    level,
    ageFrom,
    ageTo,
    language,
    tuitionVndPerMonth,
  })),
}));

export const seedSchools = (ctx: SeedContext) => seedPartnerCatalog(ctx, 'schools', schoolsCatalog, partnerCatalogDeps, DEMO_SCHOOLS);
