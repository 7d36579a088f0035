// Writes the seed data into the running emulators (run through `npm run seed:export`, which exports
// the result to emulator-data/ for `npm start` to import). Idempotent: fixed ids, set() not add().
import { createRequire } from 'node:module';
import { DEV_ADMIN } from './lib/dev-accounts.mjs';
import { functionsDir, log, PROJECT_ID } from './lib/util.mjs';

const require = createRequire(`${functionsDir}/package.json`);
const { initializeApp } = require('firebase-admin/app');
const { getFirestore } = require('firebase-admin/firestore');

if (!process.env.FIRESTORE_EMULATOR_HOST) {
  throw new Error('FIRESTORE_EMULATOR_HOST is not set: run this through `npm run seed:export`, never against a real project');
}

const SEED_VERSION = 3;

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
const { id: adminId, ...adminData } = admin;

// Documents by collection. Feature modules add their seed rows here.
const seed = {
  users: { [adminId]: { ...adminData, ...queryFields(admin) } },
  user_emails: { [DEV_ADMIN.email]: { userId: adminId, createdAt: now } },
  meta: {
    seed: {
      version: SEED_VERSION,
      description: 'Emulator seed data of superapp-backend',
      generatedBy: 'scripts/seed.mjs',
    },
  },
};

const db = getFirestore(initializeApp({ projectId: PROJECT_ID }));
let written = 0;
const total = Object.values(seed).reduce((n, docs) => n + Object.keys(docs).length, 0);
for (const [collection, docs] of Object.entries(seed)) {
  const batch = db.batch();
  for (const [id, data] of Object.entries(docs)) batch.set(db.collection(collection).doc(id), data);
  await batch.commit();
  written += Object.keys(docs).length;
  log(`seed: ${collection} (${written}/${total} documents)`);
}
log(`seed: done, version ${SEED_VERSION}`);
process.exit(0);
