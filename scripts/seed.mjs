// Writes the seed data into the running emulators (run through `npm run seed:export`, which exports
// the result to emulator-data/ for `npm start` to import). Idempotent: fixed ids, set() not add().
// Each module seeds its own data (the `seed` of its definition, modules/<m>/<m>.seed.ts), in module order, from the
// fixed demo accounts and map records below; this script only runs them and stamps the seed's version.
import { createRequire } from 'node:module';
import * as accounts from './lib/dev-accounts.mjs';
import * as demoMap from './lib/demo-map.mjs';
import { functionsDir, log, PROJECT_ID } from './lib/util.mjs';

const require = createRequire(`${functionsDir}/package.json`);
const { initializeApp } = require('firebase-admin/app');

if (!process.env.FIRESTORE_EMULATOR_HOST) {
  throw new Error('FIRESTORE_EMULATOR_HOST is not set: run this through `npm run seed:export`, never against a real project');
}

const SEED_VERSION = 14;

initializeApp({ projectId: PROJECT_ID });
// The API's own Firestore handle (its settings), which the modules' services use too.
const db = require(`${functionsDir}/lib/platform/core/firebase/firebase.js`).db();
const { MODULES } = require(`${functionsDir}/lib/modules/index.js`);
const { runSeeds } = require(`${functionsDir}/lib/platform/core/module/maintenance.js`);

let written = 0;
async function write(collection, docs) {
  const batch = db.batch();
  for (const [id, data] of Object.entries(docs)) batch.set(db.collection(collection).doc(id), data);
  await batch.commit();
  written += Object.keys(docs).length;
  log(`seed: ${collection} (${written} documents so far)`);
}

await runSeeds(MODULES, { now: Date.parse('2026-01-01T00:00:00Z'), fixtures: { ...accounts, ...demoMap }, write, log });
await write('meta', { seed: { version: SEED_VERSION, description: 'Emulator seed data of superapp-backend', generatedBy: 'scripts/seed.mjs' } });
log(`seed: done, version ${SEED_VERSION}`);
process.exit(0);
