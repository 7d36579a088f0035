#!/usr/bin/env node
// A minimal app-side listener: signs in to the API, trades the session for a Firebase custom token,
// and prints the inbox items and realtime events that arrive for this user.
//   node examples/listen.mjs [email] [password]     (defaults: the seeded local admin; needs `npm start`)
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The Firebase JS SDK installed with the functions' dev dependencies.
const require = createRequire(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'functions', 'package.json'));
const { initializeApp } = require('firebase/app');
const { connectAuthEmulator, getAuth, signInWithCustomToken } = require('firebase/auth');
const { collection, connectFirestoreEmulator, getFirestore, onSnapshot, orderBy, query, where, limit } = require('firebase/firestore');

const API = process.env.SUPERAPP_API ?? 'http://127.0.0.1:5000/api/v1';
const [email = 'admin@superapp.local', password = 'superapp-dev-admin'] = process.argv.slice(2);

const post = async (p, body, token) => {
  const res = await fetch(`${API}${p}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
  return res.json();
};

// 1. Sign in to the API, then get a Firebase custom token for the same account.
const session = await post('/auth/login/password', { email, password, surface: 'CON', deviceName: 'listen.mjs' });
const { token, uid } = await post('/auth/firebase-token', undefined, session.accessToken);

// 2. Sign in to Firebase with it (here: the emulators).
const app = initializeApp({ projectId: 'demo-superapp', apiKey: 'demo-key' });
const auth = getAuth(app);
connectAuthEmulator(auth, 'http://127.0.0.1:9099', { disableWarnings: true });
const db = getFirestore(app);
connectFirestoreEmulator(db, '127.0.0.1', 8080);
await signInWithCustomToken(auth, token);
console.log(`listening as ${uid} (${email}); Ctrl-C to stop`);

// 3. Listen. Queries must filter on recipientId == uid: the security rules refuse anything wider. The documents'
// shapes are published in openapi/firestore.schema.json and openapi/firestore-documents.d.ts; times are Timestamps.
onSnapshot(query(collection(db, 'app_notifications'), where('recipientId', '==', uid), orderBy('createdAt', 'desc'), limit(20)), (snap) => {
  for (const change of snap.docChanges()) {
    if (change.type !== 'added') continue;
    const n = change.doc.data();
    console.log(`[inbox] ${n.createdAt.toDate().toISOString()} ${n.kind} ${n.event} "${n.title}" read=${n.read} deepLink=${n.data.deepLink.tab}/${n.data.deepLink.screen} sfx=${n.data.sfx}`);
  }
});
onSnapshot(query(collection(db, 'realtime_events'), where('recipientId', '==', uid)), (snap) => {
  for (const change of snap.docChanges()) {
    if (change.type === 'added') console.log(`[realtime] ${change.doc.data().type}`, JSON.stringify(change.doc.data().data));
  }
});
