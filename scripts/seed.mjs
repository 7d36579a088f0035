// Writes the seed data into the running emulators (run through `npm run seed:export`, which exports
// the result to emulator-data/ for `npm start` to import). Idempotent: fixed ids, set() not add().
import { createRequire } from 'node:module';
import { DEMO_DRIVER_PASSWORD, DEMO_DRIVERS, DEMO_USERS, DEV_ADMIN } from './lib/dev-accounts.mjs';
import { functionsDir, log, PROJECT_ID } from './lib/util.mjs';
import { DEMO_ATMS, DEMO_FUEL_STATIONS, DEMO_PARKING_LOTS, DEMO_PARTNER, DEMO_PHARMACY_STORES, DEMO_PLACES, DEMO_PRODUCTS, DEMO_VOUCHERS, demoStock } from './lib/demo-map.mjs';

const require = createRequire(`${functionsDir}/package.json`);
const { initializeApp } = require('firebase-admin/app');

if (!process.env.FIRESTORE_EMULATOR_HOST) {
  throw new Error('FIRESTORE_EMULATOR_HOST is not set: run this through `npm run seed:export`, never against a real project');
}

const SEED_VERSION = 8;

// The local administrator (emulator data only; also listed in ADMIN_EMAILS by `npm start`): signs in
// with this password, e.g. for `npm run sounds:upload`. Built with the API's own account model.
const { newUserRecord, queryFields } = require(`${functionsDir}/lib/modules/users/users.model.js`);
const bcrypt = require('bcryptjs');
const now = Date.parse('2026-01-01T00:00:00Z');
const admin = newUserRecord({
  id: DEV_ADMIN.id,
  email: DEV_ADMIN.email,
  name: DEV_ADMIN.name,
  passwordHash: bcrypt.hashSync(DEV_ADMIN.password, 10),
  emailVerified: true,
  provider: 'password',
  now,
  roles: ['USER', 'ADMIN'],
});

// Demo consumers and their conversation: messages already fanned out (no trigger runs while seeding), so each
// membership carries the counters the message trigger would have set.
const demoUsers = DEMO_USERS.map((u) =>
  newUserRecord({ id: u.id, email: u.email, name: u.name, passwordHash: bcrypt.hashSync(u.password, 10), emailVerified: true, provider: 'password', now, roles: ['USER'] }),
);
const chat = require(`${functionsDir}/lib/modules/chat/conversations.model.js`);
// Documents apps listen to are stored as the API stores them: times as Firestore Timestamps (the model's schema).
const { storedFields } = require(`${functionsDir}/lib/platform/kits/firestore/documents.js`);
const [lan, minh] = demoUsers;
const conversationId = chat.directConversationId(lan.id, minh.id);
const script = [
  [lan, 'Chào anh Minh! Cuối tuần này anh có ra Sài Gòn không?'],
  [minh, 'Chào Lan, thứ Bảy anh bay vào, khoảng 10 giờ tới Tân Sơn Nhất.'],
  [lan, 'Tuyệt quá, em đặt xe đón anh nhé.'],
];
const messages = script.map(([sender, text], i) => ({
  id: `seed-msg-${i + 1}`,
  conversationId,
  senderId: sender.id,
  type: 'TEXT',
  text,
  media: null,
  location: null,
  replyTo: null,
  system: null,
  createdAt: now + (i + 1) * 60_000,
  editedAt: null,
  deleted: false,
  fannedOut: true,
  counted: true,
}));
const memberships = demoUsers.map((u) => {
  let member = chat.newMembership(conversationId, u.id, 'MEMBER', now);
  for (const m of messages) member = { ...member, ...chat.membershipAfterMessage(member, m) };
  return member;
});

// Demo drivers: DRIVER accounts with a profile (RIDE, a vehicle), ONLINE at a position in their city. `npm start`
// keeps them fresh (scripts/demo-drivers.mjs); a driver not heard from for 10 minutes is not offered rides.
const { driverLocationDocument, rideClassOf } = require(`${functionsDir}/lib/modules/driver/driver.model.js`);
const { geohashOf } = require(`${functionsDir}/lib/platform/kits/geo/geo.js`);
const driverHash = bcrypt.hashSync(DEMO_DRIVER_PASSWORD, 10);
const demoDrivers = DEMO_DRIVERS.map((d) => ({
  ...d,
  user: newUserRecord({ id: d.id, email: d.email, name: d.name, passwordHash: driverHash, emailVerified: true, provider: 'password', now, roles: ['DRIVER'] }),
}));

// A demo partner (an approved business with its owner) that manages the pharmacy stores, parking lots and fuel
// stations of the map tab; places and ATMs are curated by the administrator.
const partnerOwner = newUserRecord({ id: DEMO_PARTNER.userId, email: DEMO_PARTNER.email, name: DEMO_PARTNER.name, passwordHash: bcrypt.hashSync(DEMO_PARTNER.password, 10), emailVerified: true, provider: 'password', now, roles: ['USER', 'PARTNER_OWNER'] });
const everyone = [admin, ...demoUsers, ...demoDrivers.map((d) => d.user), partnerOwner];

// Documents by collection. Feature modules add their seed rows here.
const seed = {
  users: Object.fromEntries(everyone.map(({ id, ...data }) => [id, { ...data, ...queryFields({ id, ...data }) }])),
  user_emails: Object.fromEntries(everyone.map((u) => [u.email, { userId: u.id, createdAt: now }])),
  partners: { [DEMO_PARTNER.id]: { ownerId: partnerOwner.id, businessName: DEMO_PARTNER.name, businessType: 'SERVICES', address: 'TP. Hồ Chí Minh', status: 'ACTIVE', applicationId: 'seed', createdAt: now, updatedAt: now, approvedAt: now } },
  partner_members: { [`${DEMO_PARTNER.id}_${partnerOwner.id}`]: { partnerId: DEMO_PARTNER.id, userId: partnerOwner.id, role: 'OWNER', email: null, addedBy: admin.id, createdAt: now } },
  driver_profiles: Object.fromEntries(
    demoDrivers.map((d) => [d.id, { userId: d.id, capabilities: ['RIDE', 'COURIER', 'DELIVERY'], vehicle: d.vehicle, status: 'ONLINE', lastLocation: null, approvedAt: now, createdAt: now, updatedAt: now }]),
  ),
  driver_locations: Object.fromEntries(
    demoDrivers.map((d) => {
      const rideClass = rideClassOf(d.vehicle);
      return [d.id, storedFields(driverLocationDocument, { userId: d.id, lat: d.lat, lng: d.lng, geohash: geohashOf(d), heading: null, speedKmh: null, status: 'ONLINE', capabilities: ['RIDE', 'COURIER', 'DELIVERY'], rideClass, currentRideId: null, riderId: null, tripActive: false, tripDistanceM: 0, dispatchKey: rideClass, locatedAt: now, updatedAt: now })];
    }),
  ),
  conversations: {
    [conversationId]: storedFields(chat.conversationDocument, { type: 'DIRECT', title: null, ownerId: null, memberIds: [lan.id, minh.id], context: null, closed: false, createdBy: lan.id, createdAt: now, updatedAt: now }),
  },
  [`conversations/${conversationId}/messages`]: Object.fromEntries(messages.map((m) => [m.id, storedFields(chat.messageDocument, m)])),
  chat_memberships: Object.fromEntries(memberships.map((m) => [`${conversationId}_${m.userId}`, storedFields(chat.membershipDocument, m)])),
  meta: {
    seed: {
      version: SEED_VERSION,
      description: 'Emulator seed data of superapp-backend',
      generatedBy: 'scripts/seed.mjs',
    },
  },
};

initializeApp({ projectId: PROJECT_ID });
// The API's own Firestore handle (its settings), which the services below use too.
const db = require(`${functionsDir}/lib/platform/core/firebase/firebase.js`).db();
let written = 0;
const total = Object.values(seed).reduce((n, docs) => n + Object.keys(docs).length, 0);
for (const [collection, docs] of Object.entries(seed)) {
  const batch = db.batch();
  for (const [id, data] of Object.entries(docs)) batch.set(db.collection(collection).doc(id), data);
  await batch.commit();
  written += Object.keys(docs).length;
  log(`seed: ${collection} (${written}/${total} documents)`);
}
// Wallet: Lan tops up 500,000 ₫ through the mock gateway and sends Minh 50,000 ₫, through the services themselves
// (the ledger's transfers, balances and the payment record are what the API writes). Fixed keys and clock: the same
// ids every time, and a second run finds its operations already done.
const { createPaymentsService } = require(`${functionsDir}/lib/modules/payments/payments.service.js`);
const { createWalletService } = require(`${functionsDir}/lib/modules/wallet/wallet.service.js`);
const { mockGateway, mockKey } = require(`${functionsDir}/lib/modules/payments/gateways/mock.js`);
const seedClock = () => now + 3_600_000;
const payments = createPaymentsService({
  gateways: { MOCK: mockGateway((id) => `http://127.0.0.1:5000/api/v1/payments/mock/return?paymentId=${id}`) },
  mockKey: mockKey('seed'),
  expirySec: 900,
  refundWindowDays: 7,
  scheduler: { schedule: async () => undefined }, // a MOCK top-up settles at once: no expiry timer to set
  now: seedClock,
});
const wallet = createWalletService({ dailyTransferLimit: 20_000_000, now: seedClock });
const topup = await payments.topup(lan.id, { amount: 500_000, provider: 'MOCK' }, 'seed-topup-lan-1', '127.0.0.1');
const sent = await wallet.sendToUser(lan.id, { toUserId: minh.id, amount: 50_000, note: 'Tiền taxi sân bay' }, 'seed-p2p-lan-minh-1');
log(`seed: wallet: Lan's top-up ${topup.status}, sent Minh ${sent.amount} ₫ (Lan ${sent.balanceAfter} ₫)`);

// The map tab through its services, each body validated by the API's own schema: places and ATMs curated by the
// administrator, stores (with stock), lots and stations managed by the demo partner, and the vouchers.
const { catalogSchemas } = require(`${functionsDir}/lib/platform/kits/catalog/catalog.routes.js`);
const asAdmin = { userId: admin.id, roles: ['USER', 'ADMIN'] };
const asPartner = { userId: partnerOwner.id, roles: ['USER', 'PARTNER_OWNER'] };
const catalogs = [
  ['places', 'places/places.catalog.js', 'placesCatalog', 'places/places.catalog.js', 'placesService', DEMO_PLACES, asAdmin],
  ['pharmacy stores', 'pharmacy/pharmacy.catalog.js', 'pharmacyCatalog', 'pharmacy/pharmacy.catalog.js', 'pharmacyStores', DEMO_PHARMACY_STORES, asPartner],
  ['parking lots', 'parking/parking.catalog.js', 'parkingCatalog', 'parking/parking.catalog.js', 'parkingLots', DEMO_PARKING_LOTS, asPartner],
  ['fuel stations', 'fuel/fuel.catalog.js', 'fuelCatalog', 'fuel/fuel.catalog.js', 'fuelStations', DEMO_FUEL_STATIONS, asPartner],
  ['ATMs', 'atm/atm.catalog.js', 'atmCatalog', 'atm/atm.catalog.js', 'atms', DEMO_ATMS, asAdmin],
];
for (const [label, specFile, specName, wiringFile, serviceName, records, caller] of catalogs) {
  const spec = require(`${functionsDir}/lib/modules/${specFile}`)[specName];
  const service = require(`${functionsDir}/lib/modules/${wiringFile}`)[serviceName]();
  const { body } = catalogSchemas(spec);
  for (const { id, ...fields } of records) {
    await service.create(caller, body.parse({ ...fields, ...(caller === asPartner ? { partnerId: DEMO_PARTNER.id } : {}) }), { id });
  }
  log(`seed: ${label}: ${records.length}`);
}
const { pharmacyCatalog, pharmacyProducts } = require(`${functionsDir}/lib/modules/pharmacy/pharmacy.catalog.js`);
const ProductBodySchema = pharmacyCatalog.items.body;
let lines = 0;
for (const [s, store] of DEMO_PHARMACY_STORES.entries()) {
  await Promise.all(DEMO_PRODUCTS.map(({ sku, ...product }, p) => pharmacyProducts().put(store.id, sku, asPartner, ProductBodySchema.parse({ ...product, stock: demoStock(s, p) }))));
  lines += DEMO_PRODUCTS.length;
}
log(`seed: pharmacy products: ${lines} stock lines`);
const { createPromotionsService } = require(`${functionsDir}/lib/modules/promotions/promotions.service.js`);
const { PromotionBodySchema } = require(`${functionsDir}/lib/modules/promotions/promotions.schemas.js`);
const promotions = createPromotionsService({ partnerRole: async () => undefined, now: () => now });
for (const voucher of DEMO_VOUCHERS) await promotions.create(asAdmin, PromotionBodySchema.parse(voucher));
log(`seed: vouchers: ${DEMO_VOUCHERS.length}`);
log(`seed: done, version ${SEED_VERSION}`);
process.exit(0);
