// The local administrator seeded into emulator-data/ (emulator only; ADMIN_EMAILS lists it under `npm start`).
export const DEV_ADMIN = { id: 'seed-admin', email: 'admin@superapp.local', password: 'superapp-dev-admin', name: 'Local Admin' };
