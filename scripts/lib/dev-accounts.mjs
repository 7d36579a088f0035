// The local administrator seeded into emulator-data/ (emulator only; ADMIN_EMAILS lists it under `npm start`).
export const DEV_ADMIN = { id: 'seed-admin', email: 'admin@superapp.local', password: 'superapp-dev-admin', name: 'Local Admin' };

// Two demo consumers with a direct conversation (emulator only): sign in as either to try chat.
export const DEMO_USERS = [
  { id: 'seed-lan', email: 'lan@superapp.local', password: 'superapp-demo-user', name: 'Nguyễn Thị Lan', city: 'Ho Chi Minh City' },
  { id: 'seed-minh', email: 'minh@superapp.local', password: 'superapp-demo-user', name: 'Trần Văn Minh', city: 'Hanoi' },
];
