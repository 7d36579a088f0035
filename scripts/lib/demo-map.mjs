// Demo records of the map tab (emulator only), fixed so that every seed is the same: landmarks of Ho Chi Minh City
// and Hanoi at their real positions, and stores, lots, stations and ATMs placed on a spiral around each centre.
export const DEMO_PARTNER = { id: 'seed-partner', userId: 'seed-partner-owner', email: 'partner@superapp.local', password: 'superapp-demo-partner', name: 'Công ty Dịch vụ Đô Thị Xanh' };

const HCMC = { lat: 10.7769, lng: 106.7009 };
const HANOI = { lat: 21.0285, lng: 105.8542 };

/** The i-th of n points on a spiral out to maxM around `c` (deterministic, evenly spread). */
function spiral(c, i, n, maxM) {
  const r = maxM * Math.sqrt((i + 0.5) / n);
  const a = i * 2.399963;
  return { lat: +(c.lat + (r * Math.cos(a)) / 111_320).toFixed(6), lng: +(c.lng + (r * Math.sin(a)) / (111_320 * Math.cos((c.lat * Math.PI) / 180))).toFixed(6) };
}

const daily = (open, close) => ({ weekly: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'].map((day) => ({ day, open, close })) });
const ALWAYS = { open24h: true };

// name, category, lat, lng, hours
const LANDMARKS = [
  ['Chợ Bến Thành', 'MARKET', 10.7725, 106.698, daily('06:00', '19:00')],
  ['Nhà thờ Đức Bà Sài Gòn', 'ATTRACTION', 10.7798, 106.699, daily('08:00', '17:00')],
  ['Dinh Độc Lập', 'ATTRACTION', 10.777, 106.6953, daily('08:00', '16:30')],
  ['Bưu điện Trung tâm Sài Gòn', 'ATTRACTION', 10.7799, 106.7, daily('07:00', '19:00')],
  ['Phố đi bộ Nguyễn Huệ', 'ATTRACTION', 10.774, 106.7038, ALWAYS],
  ['Landmark 81', 'SHOPPING', 10.795, 106.7218, daily('09:30', '22:00')],
  ['Bitexco Financial Tower', 'ATTRACTION', 10.7716, 106.7045, daily('09:30', '21:30')],
  ['Chợ Bình Tây', 'MARKET', 10.7496, 106.651, daily('06:00', '19:00')],
  ['Bảo tàng Chứng tích Chiến tranh', 'ATTRACTION', 10.7795, 106.6921, daily('07:30', '17:30')],
  ['Thảo Cầm Viên Sài Gòn', 'PARK', 10.7875, 106.7053, daily('07:00', '18:30')],
  ['Công viên Tao Đàn', 'PARK', 10.7748, 106.6924, daily('05:00', '22:00')],
  ['Phở Hòa Pasteur', 'RESTAURANT', 10.7891, 106.6894, daily('06:00', '23:00')],
  ['Cơm tấm Ba Ghiền', 'RESTAURANT', 10.797, 106.671, daily('07:00', '21:00')],
  ['Bánh mì Huỳnh Hoa', 'RESTAURANT', 10.7714, 106.6922, daily('14:30', '23:00')],
  ['Cộng Cà Phê Lý Tự Trọng', 'CAFE', 10.7766, 106.7001, daily('07:00', '23:00')],
  ['The Workshop Coffee', 'CAFE', 10.773, 106.7055, daily('08:00', '21:00')],
  ['Bệnh viện Chợ Rẫy', 'HOSPITAL', 10.7578, 106.6594, ALWAYS],
  ['Trường Đại học Bách khoa TP.HCM', 'SCHOOL', 10.7721, 106.6579, daily('07:00', '17:00')],
  ['Saigon Centre', 'SHOPPING', 10.7738, 106.7008, daily('09:30', '22:00')],
  ['Vincom Center Đồng Khởi', 'SHOPPING', 10.7781, 106.7021, daily('09:30', '22:00')],
  ['Chợ Tân Định', 'MARKET', 10.7897, 106.6905, daily('06:00', '18:00')],
  ['Bún bò Huế Đông Ba', 'RESTAURANT', 10.7859, 106.6878, daily('06:00', '14:00')],
  ['Ốc Oanh Vĩnh Khánh', 'RESTAURANT', 10.7607, 106.7037, daily('16:00', '00:00')],
  ['Bệnh viện Nhi Đồng 1', 'HOSPITAL', 10.7689, 106.6699, ALWAYS],
  ['Công viên Lê Văn Tám', 'PARK', 10.7876, 106.6941, daily('05:00', '21:00')],
  ['California Fitness Saigon Centre', 'GYM', 10.7735, 106.7006, daily('06:00', '22:00')],
  ['Hồ Hoàn Kiếm', 'ATTRACTION', 21.0288, 105.8525, ALWAYS],
  ['Văn Miếu – Quốc Tử Giám', 'ATTRACTION', 21.0277, 105.8355, daily('08:00', '17:00')],
  ['Lăng Chủ tịch Hồ Chí Minh', 'ATTRACTION', 21.0368, 105.8346, daily('07:30', '10:30')],
  ['Chùa Một Cột', 'ATTRACTION', 21.0359, 105.8337, daily('07:00', '18:00')],
  ['Nhà hát Lớn Hà Nội', 'ATTRACTION', 21.0243, 105.8576, daily('08:00', '22:00')],
  ['Chợ Đồng Xuân', 'MARKET', 21.0381, 105.8494, daily('06:00', '18:00')],
  ['Phở Thìn Lò Đúc', 'RESTAURANT', 21.016, 105.856, daily('06:00', '21:00')],
  ['Bún chả Hương Liên', 'RESTAURANT', 21.0181, 105.853, daily('08:00', '20:30')],
  ['Cà phê Giảng', 'CAFE', 21.0338, 105.8536, daily('07:00', '22:00')],
  ['Hồ Tây', 'PARK', 21.058, 105.819, ALWAYS],
  ['Bệnh viện Bạch Mai', 'HOSPITAL', 21.001, 105.841, ALWAYS],
  ['Đại học Quốc gia Hà Nội', 'SCHOOL', 21.038, 105.783, daily('07:00', '17:00')],
  ['Vincom Center Bà Triệu', 'SHOPPING', 21.0113, 105.8497, daily('09:30', '22:00')],
  ['Hoàng thành Thăng Long', 'ATTRACTION', 21.034, 105.84, daily('08:00', '17:00')],
  ['Công viên Thống Nhất', 'PARK', 21.015, 105.843, daily('05:00', '22:00')],
  ['Lotte Center Hà Nội', 'SHOPPING', 21.0317, 105.8124, daily('09:30', '22:00')],
  ['Di tích Nhà tù Hỏa Lò', 'ATTRACTION', 21.0253, 105.8463, daily('08:00', '17:00')],
  ['Cầu Long Biên', 'ATTRACTION', 21.043, 105.859, ALWAYS],
  ['Chùa Trấn Quốc', 'ATTRACTION', 21.048, 105.837, daily('08:00', '16:00')],
  ['Bảo tàng Dân tộc học Việt Nam', 'ATTRACTION', 21.0405, 105.7985, daily('08:30', '17:30')],
  ['Chả cá Lã Vọng', 'RESTAURANT', 21.0337, 105.8489, daily('11:00', '21:00')],
  ['Cà phê Cộng Hàng Bạc', 'CAFE', 21.0339, 105.8527, daily('07:00', '23:30')],
  ['Bánh cuốn Bà Hoành', 'RESTAURANT', 21.0149, 105.8499, daily('06:00', '20:00')],
  ['Aeon Mall Long Biên', 'SHOPPING', 21.0275, 105.8995, daily('08:00', '22:00')],
];
const FOOD = ['Quán cơm nhà', 'Bún riêu', 'Hủ tiếu Nam Vang', 'Trà sữa', 'Bánh xèo', 'Lẩu dê', 'Xôi gà', 'Cháo lòng', 'Gỏi cuốn', 'Chè Thái'];

export const DEMO_PLACES = [
  ...LANDMARKS.map(([name, category, lat, lng, hours], i) => ({ id: `seed-place-${String(i + 1).padStart(3, '0')}`, name, category, location: { lat, lng }, openingHours: hours, address: lat < 15 ? 'TP. Hồ Chí Minh' : 'Hà Nội' })),
  ...Array.from({ length: 20 }, (_, i) => {
    const centre = i % 2 === 0 ? HCMC : HANOI;
    return {
      id: `seed-place-${String(LANDMARKS.length + i + 1).padStart(3, '0')}`,
      name: `${FOOD[i % FOOD.length]} ${i % 2 === 0 ? 'Sài Gòn' : 'Hà Nội'} ${Math.floor(i / 2) + 1}`,
      category: i % 5 === 4 ? 'CAFE' : 'RESTAURANT',
      priceLevel: (i % 3) + 1,
      location: spiral(centre, i, 20, 4_000),
      openingHours: daily(i % 3 === 0 ? '06:00' : '10:00', i % 4 === 0 ? '02:00' : '22:00'),
      address: centre === HCMC ? 'TP. Hồ Chí Minh' : 'Hà Nội',
    };
  }),
];

const CHAINS = ['Long Châu', 'Pharmacity', 'An Khang'];
export const DEMO_PHARMACY_STORES = Array.from({ length: 20 }, (_, i) => {
  const centre = i < 12 ? HCMC : HANOI;
  const chain = CHAINS[i % CHAINS.length];
  return { id: `seed-pharmacy-${String(i + 1).padStart(2, '0')}`, name: `Nhà thuốc ${chain} ${i + 1}`, chain, pharmacistOnDuty: true, location: spiral(centre, i, 20, 5_000), openingHours: i % 4 === 0 ? ALWAYS : daily('07:00', '22:00') };
});
export const DEMO_PRODUCTS = [
  { sku: 'PANADOL-EXTRA', name: 'Panadol Extra 500mg', priceVnd: 185_000, unit: 'hộp' },
  { sku: 'EFFERALGAN-500', name: 'Efferalgan 500mg sủi', priceVnd: 45_000, unit: 'hộp' },
  { sku: 'BEROCCA', name: 'Berocca Performance', priceVnd: 98_000, unit: 'tuýp' },
  { sku: 'VITC-500', name: 'Vitamin C 500mg', priceVnd: 30_000, unit: 'lọ' },
  { sku: 'ORESOL', name: 'Oresol 245 bù điện giải', priceVnd: 3_000, unit: 'gói' },
  { sku: 'SALONPAS', name: 'Salonpas dán giảm đau', priceVnd: 25_000, unit: 'hộp' },
  { sku: 'AMOX-500', name: 'Amoxicillin 500mg', priceVnd: 60_000, unit: 'vỉ', requiresPrescription: true },
  { sku: 'MASK-4L', name: 'Khẩu trang y tế 4 lớp', priceVnd: 35_000, unit: 'hộp' },
];
/** Stock of product p in store s: some lines are out of stock. */
export const demoStock = (s, p) => ((s * 7 + p * 3) % 11 === 0 ? 0 : 5 + ((s * 13 + p * 5) % 40));

export const DEMO_PARKING_LOTS = Array.from({ length: 15 }, (_, i) => {
  const centre = i < 9 ? HCMC : HANOI;
  const capacity = 40 + (i % 5) * 30;
  return {
    id: `seed-parking-${String(i + 1).padStart(2, '0')}`,
    name: `Bãi giữ xe ${i < 9 ? 'Quận 1' : 'Hoàn Kiếm'} số ${i + 1}`,
    location: spiral(centre, i + 3, 18, 3_000),
    capacity,
    freeSpaces: (i * 17) % (capacity + 1),
    pricesPerHour: i % 3 === 0 ? { MOTORBIKE: 5_000, BICYCLE: 2_000 } : { MOTORBIKE: 6_000, CAR: 25_000 + (i % 4) * 5_000 },
    covered: i % 2 === 0,
    openingHours: i % 3 === 1 ? ALWAYS : daily('06:00', '23:00'),
    // Lots pricing cars take car bookings for a fifth of their spaces.
    ...(i % 3 === 0 ? {} : { bookableSpaces: { CAR: Math.floor(capacity / 5) } }),
  };
});

const BRANDS = ['Petrolimex', 'PVOIL', 'Mipec', 'Saigon Petro'];
export const DEMO_FUEL_STATIONS = Array.from({ length: 15 }, (_, i) => {
  const centre = i < 8 ? HCMC : HANOI;
  const brand = BRANDS[i % BRANDS.length];
  const d = (i % 5) * 100;
  return {
    id: `seed-fuel-${String(i + 1).padStart(2, '0')}`,
    name: `Cửa hàng xăng dầu ${brand} ${i + 1}`,
    brand,
    location: spiral(centre, i + 5, 20, 6_000),
    prices: i % 4 === 3 ? { DIESEL: 18_900 + d } : { RON95: 20_500 + d, E5: 19_800 + d, ...(i % 2 === 0 ? { DIESEL: 18_700 + d } : {}) },
    services: i % 2 === 0 ? ['AIR', 'TOILET'] : ['AIR', 'SHOP', 'CAR_WASH'],
    openingHours: i % 3 === 0 ? ALWAYS : daily('05:30', '22:30'),
  };
});

const ATM_BANKS = ['VCB', 'BIDV', 'CTG', 'AGR', 'TCB', 'MB', 'ACB', 'VPB', 'TPB', 'STB'];
export const DEMO_ATMS = Array.from({ length: 30 }, (_, i) => {
  const centre = i < 18 ? HCMC : HANOI;
  const bank = ATM_BANKS[i % ATM_BANKS.length];
  return { id: `seed-atm-${String(i + 1).padStart(2, '0')}`, name: `ATM ${bank} ${i + 1}`, bank, deposit: i % 4 === 0, location: spiral(centre, i, 30, 3_500), openingHours: i % 5 === 4 ? daily('06:00', '22:00') : ALWAYS };
});

const from = '2026-01-01T00:00:00+07:00';
const until = '2027-12-31T23:59:59+07:00';
export const DEMO_VOUCHERS = [
  { code: 'CHAOBAN', title: 'Chào bạn mới: giảm 50% chuyến đầu', kind: 'PERCENT', value: 50, maxDiscount: 40_000, verticals: ['RIDE'] },
  { code: 'XEMAY15', title: 'Giảm 15.000đ xe máy', kind: 'FIXED', value: 15_000, minSpend: 30_000, perUserLimit: 5, verticals: ['RIDE'] },
  { code: 'ANNGON', title: 'Giảm 20% đơn đồ ăn', kind: 'PERCENT', value: 20, maxDiscount: 50_000, minSpend: 100_000, perUserLimit: 3, verticals: ['ORDER'] },
  { code: 'FREESHIP', title: 'Giảm 25.000đ phí giao', kind: 'FIXED', value: 25_000, minSpend: 80_000, perUserLimit: 10, verticals: ['ORDER', 'PHARMACY'] },
  { code: 'KHOEMANH', title: 'Nhà thuốc giảm 10%', kind: 'PERCENT', value: 10, maxDiscount: 100_000, verticals: ['PHARMACY'] },
  { code: 'DOXE', title: 'Gửi xe giảm 5.000đ', kind: 'FIXED', value: 5_000, perUserLimit: 20, verticals: ['PARKING'] },
  { code: 'NGHIDUONG', title: 'Khách sạn giảm 12%', kind: 'PERCENT', value: 12, maxDiscount: 300_000, minSpend: 500_000, verticals: ['BOOKING'] },
  { code: 'CUOITUAN', title: 'Cuối tuần giảm 30.000đ', kind: 'FIXED', value: 30_000, minSpend: 150_000, perUserLimit: 2, verticals: ['RIDE', 'ORDER', 'BOOKING'] },
  { code: 'GIOVANG', title: 'Giờ vàng: 100 suất giảm 40%', kind: 'PERCENT', value: 40, maxDiscount: 60_000, totalLimit: 100, verticals: ['RIDE', 'ORDER'] },
  { code: 'TET2027', title: 'Lì xì Tết: 1.000 suất 50.000đ', kind: 'FIXED', value: 50_000, minSpend: 200_000, totalLimit: 1_000, verticals: ['RIDE', 'ORDER', 'BOOKING', 'PARKING', 'PHARMACY'] },
].map((v) => ({ startsAt: from, endsAt: until, ...v }));
