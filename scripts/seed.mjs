// Writes the seed data into the running emulators (run through `npm run seed:export`, which exports
// the result to emulator-data/ for `npm start` to import). Idempotent: fixed ids, set() not add().
import { createRequire } from 'node:module';
import { DEMO_USERS, DEV_ADMIN } from './lib/dev-accounts.mjs';
import { functionsDir, log, PROJECT_ID } from './lib/util.mjs';

const require = createRequire(`${functionsDir}/package.json`);
const { initializeApp } = require('firebase-admin/app');
const { getFirestore } = require('firebase-admin/firestore');

if (!process.env.FIRESTORE_EMULATOR_HOST) {
  throw new Error('FIRESTORE_EMULATOR_HOST is not set: run this through `npm run seed:export`, never against a real project');
}

const SEED_VERSION = 4;

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

// Documents by collection. Feature modules add their seed rows here.
const seed = {
  users: Object.fromEntries([admin, ...demoUsers].map(({ id, ...data }) => [id, { ...data, ...queryFields({ id, ...data }) }])),
  user_emails: Object.fromEntries([admin, ...demoUsers].map((u) => [u.email, { userId: u.id, createdAt: now }])),
  conversations: {
    [conversationId]: { type: 'DIRECT', title: null, ownerId: null, memberIds: [lan.id, minh.id], context: null, closed: false, createdBy: lan.id, createdAt: now, updatedAt: now },
  },
  [`conversations/${conversationId}/messages`]: Object.fromEntries(messages.map((m) => [m.id, m])),
  chat_memberships: Object.fromEntries(memberships.map((m) => [`${conversationId}_${m.userId}`, m])),
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
