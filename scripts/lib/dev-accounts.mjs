// The local administrator seeded into emulator-data/ (emulator only; ADMIN_EMAILS lists it under `npm start`).
export const DEV_ADMIN = { id: 'seed-admin', email: 'admin@superapp.local', password: 'superapp-dev-admin', name: 'Local Admin' };

// Two demo consumers with a direct conversation (emulator only): sign in as either to try chat.
export const DEMO_USERS = [
  { id: 'seed-lan', email: 'lan@superapp.local', password: 'superapp-demo-user', name: 'Nguyễn Thị Lan', city: 'Ho Chi Minh City' },
  { id: 'seed-minh', email: 'minh@superapp.local', password: 'superapp-demo-user', name: 'Trần Văn Minh', city: 'Hanoi' },
];

// Thirty demo drivers (emulator only), fifteen around Ho Chi Minh City and fifteen around Hanoi, so that a newcomer's
// POST /rides finds one. `npm start` keeps them online: scripts/demo-drivers.mjs reports their positions.
const HCMC = [10.7769, 106.7009];
const HANOI = [21.0285, 105.8542];
const FAMILY = ['Nguyễn', 'Trần', 'Lê', 'Phạm', 'Hoàng', 'Phan', 'Vũ', 'Đặng', 'Bùi', 'Đỗ'];
const GIVEN = ['Văn Hùng', 'Minh Tuấn', 'Quốc Bảo', 'Thanh Sơn', 'Đức Anh', 'Hữu Phước', 'Công Vinh', 'Thị Hoa'];
export const DEMO_DRIVER_PASSWORD = 'superapp-demo-driver';
export const DEMO_DRIVERS = Array.from({ length: 30 }, (_, i) => {
  const [lat, lng] = i < 15 ? HCMC : HANOI;
  // A fixed spiral around the centre (deterministic seed): up to about 3 km out.
  const angle = i * 2.399963;
  const radiusM = 250 + (i % 15) * 180;
  const kind = i % 3 === 2 ? 'CAR' : 'MOTORBIKE';
  return {
    id: `seed-driver-${String(i + 1).padStart(2, '0')}`,
    email: `driver${String(i + 1).padStart(2, '0')}@superapp.local`,
    name: `${FAMILY[i % FAMILY.length]} ${GIVEN[i % GIVEN.length]}`,
    city: i < 15 ? 'Ho Chi Minh City' : 'Hanoi',
    lat: +(lat + (radiusM * Math.cos(angle)) / 111_320).toFixed(6),
    lng: +(lng + (radiusM * Math.sin(angle)) / (111_320 * Math.cos((lat * Math.PI) / 180))).toFixed(6),
    vehicle: kind === 'CAR'
      ? { type: 'CAR', plate: `${i < 15 ? '51' : '30'}A-${String(10000 + i * 137).slice(0, 5)}`, model: i % 2 ? 'Toyota Vios' : 'Hyundai Accent', color: 'white', seats: i % 4 === 0 ? 7 : 4 }
      : { type: 'MOTORBIKE', plate: `${i < 15 ? '59' : '29'}X1-${String(20000 + i * 211).slice(0, 5)}`, model: i % 2 ? 'Honda Vision' : 'Yamaha Sirius', color: i % 2 ? 'red' : 'black', seats: 2 },
  };
});
