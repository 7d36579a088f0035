// Writes the seed data into the running emulators (run through `npm run seed:export`, which exports
// the result to emulator-data/ for `npm start` to import). Idempotent: fixed ids, set() not add().
import { createRequire } from 'node:module';
import { functionsDir, log, PROJECT_ID } from './lib/util.mjs';

const require = createRequire(`${functionsDir}/package.json`);
const { initializeApp } = require('firebase-admin/app');
const { getFirestore } = require('firebase-admin/firestore');

if (!process.env.FIRESTORE_EMULATOR_HOST) {
  throw new Error('FIRESTORE_EMULATOR_HOST is not set: run this through `npm run seed:export`, never against a real project');
}

const SEED_VERSION = 1;

// Documents by collection. Feature modules add their seed rows here.
const seed = {
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
