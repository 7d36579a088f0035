// A consumer app's ride, on the typed client: sign in, quote, book (the client adds the Idempotency-Key), then
// follow the ride's status live through the Firestore client SDK (the realtime events the API writes for this user).
//   npm run example -- book-a-ride [email] [password]      (defaults: the seeded consumer; needs `npm start`)
import { initializeApp } from 'firebase/app';
import { connectAuthEmulator, getAuth, signInWithCustomToken } from 'firebase/auth';
import { collection, connectFirestoreEmulator, getFirestore, onSnapshot, query, where } from 'firebase/firestore';
import type { RealtimeEventDocument } from '../../openapi/firestore-documents';
import { createSuperappClient, memoryTokenStore, unwrap } from '../client';

const API = process.env.SUPERAPP_API ?? 'http://127.0.0.1:5000/api/v1';
const [email = 'lan@superapp.local', password = 'superapp-demo-user'] = process.argv.slice(2);
const client = createSuperappClient({ baseUrl: API, tokens: memoryTokenStore(), onSessionEnded: (code) => console.error(`session ended: ${code}`) });
const { api } = client;

// 1. Sign in (a password; two-factor answers with a challenge instead of tokens).
const signIn = unwrap(await api.POST('/auth/login/password', { body: { email, password, surface: 'CON', deviceName: 'book-a-ride example' } }));
if ('requiresTwoFa' in signIn) throw new Error('this account has two-factor sign-in on: finish it with POST /auth/login/password/2fa');
client.signedIn(signIn);

// 2. Listen before booking, so no status is missed: a Firebase sign-in for the same account, then the events the
// security rules let it read (its own).
const { token, uid } = unwrap(await api.POST('/auth/firebase-token'));
const app = initializeApp({ projectId: process.env.GCLOUD_PROJECT ?? 'demo-superapp', apiKey: 'demo-key' });
const auth = getAuth(app);
const db = getFirestore(app);
if (API.includes('127.0.0.1') || API.includes('localhost')) {
  connectAuthEmulator(auth, 'http://127.0.0.1:9099', { disableWarnings: true });
  connectFirestoreEmulator(db, '127.0.0.1', 8080);
}
await signInWithCustomToken(auth, token);

// 3. Quote and book: Bến Thành market to Tân Sơn Nhất airport, by motorbike, paid in cash.
const pickup = { lat: 10.7725, lng: 106.698, address: 'Chợ Bến Thành' };
const dropoff = { lat: 10.8185, lng: 106.6588, address: 'Sân bay Tân Sơn Nhất' };
const quote = unwrap(await api.POST('/rides/quote', { body: { pickup, dropoff } }));
const motorbike = quote.quotes.find((q) => q.vehicleType === 'MOTORBIKE');
if (!motorbike) throw new Error('no motorbike price for this trip');
console.log(`quote: ${motorbike.fare} VND, ${Math.round(motorbike.distanceM / 100) / 10} km`);
const ride = unwrap(await api.POST('/rides', { body: { pickup, dropoff, vehicleType: 'MOTORBIKE', paymentMethod: 'CASH', quoteId: motorbike.quoteId } }));
console.log(`ride ${ride.id}: ${ride.status}${ride.driver ? ` with ${ride.driver.name}` : ''}`);
if (ride.status !== 'CONFIRMED') process.exit(0);

// 4. Its status, live, until it ends (Ctrl-C to stop earlier).
const stop = onSnapshot(query(collection(db, 'realtime_events'), where('recipientId', '==', uid)), (snap) => {
  for (const change of snap.docChanges()) {
    // The documents' shapes are published beside the OpenAPI document (openapi/firestore-documents.d.ts).
    const event = change.doc.data() as RealtimeEventDocument;
    if (change.type !== 'added' || event.type !== 'ride:status' || event.data.rideId !== ride.id) continue;
    console.log(`[live] ride ${event.data.status}${event.data.driverId ? ` (driver ${event.data.driverId})` : ''}`);
    if (event.data.status === 'COMPLETED' || event.data.status === 'CANCELLED') {
      stop();
      process.exit(0);
    }
  }
});
