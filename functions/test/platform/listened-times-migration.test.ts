import { randomUUID } from 'node:crypto';
import { Timestamp } from 'firebase-admin/firestore';
import { LISTENED_DOCUMENTS } from '../../src/modules';
import { db } from '../../src/platform/core/firebase/firebase';
import { migrateListenedTimes, type MigrationProgress } from '../../src/platform/kits/firestore/migrate-times';
import { setLogSink } from '../../src/platform/core/logging/logger';
import { contractProblems } from '../helpers/contract';
import { requireEmulators } from '../helpers/emulators';

beforeAll(requireEmulators);

// `node scripts/stack.mjs migrate-listened-times`: documents apps listen to, written with epoch-ms times before the
// move, become Timestamps. The real schemas over collections of this test's own (the scan reads whole collections),
// in pages of 2 so that paging is exercised; the documents then parse with the published schemas.

const tag = randomUUID().slice(0, 8);
const T = Date.UTC(2026, 5, 1, 12);
const listened = (name: string, path: string) => ({ ...LISTENED_DOCUMENTS.find((d) => d.name === name)!, path });
const ridesPath = `mig_${tag}_rides`;
const conversationsPath = `mig_${tag}_conversations`;
const messagesName = `mig_${tag}_messages`;
const membershipsPath = `mig_${tag}_memberships`;
const realtimePath = `mig_${tag}_realtime`;
const paymentsPath = `mig_${tag}_payments`;
const presencePath = `mig_${tag}_presence`;
const documents = [
  listened('MetaSeedDocument', `mig_${tag}_meta/seed`),
  listened('RideDocument', `${ridesPath}/{rideId}`),
  listened('MessageDocument', `${conversationsPath}/{conversationId}/${messagesName}/{messageId}`),
  listened('ChatMembershipDocument', `${membershipsPath}/{membershipId}`),
  listened('RealtimeEventDocument', `${realtimePath}/{id}`),
  listened('PaymentDocument', `${paymentsPath}/{paymentId}`),
  listened('PresenceMemberDocument', `${presencePath}/{roomId}/members/{userId}`),
];

// As the code before the move stored them: every time in epoch ms.
const legacyRide = (i: number) => ({
  riderId: 'u1',
  driverId: 'd1',
  participants: ['u1', 'd1'],
  status: 'COMPLETED',
  rideClass: 'CAR',
  pickup: { lat: 10.7, lng: 106.7 },
  dropoff: { lat: 10.8, lng: 106.6, address: null },
  pickupCell: null,
  quote: { fare: 50_000, distanceM: 4000, durationSec: 600, surgeBp: 10_000 },
  paymentMethod: 'CASH',
  holdPaymentId: null,
  paymentId: 'p1',
  fare: 48_000,
  drivenM: 3900,
  cancellationFee: 0,
  driver: { name: 'Hùng', vehicle: null, rating: 4.9 },
  etaToPickupSec: 120,
  excludedDriverIds: [],
  reassignments: 0,
  note: null,
  cancelledBy: null,
  cancelReason: null,
  rating: null,
  share: { tokenHash: 'h', expiresAt: T + i },
  createdAt: T + i,
  confirmedAt: T + i + 1,
  arrivedAt: T + i + 2,
  pickedUpAt: T + i + 3,
  completedAt: T + i + 4,
  endedAt: T + i + 4,
  updatedAt: T + i + 5,
});
const legacyMessage = (conversationId: string, id: string, i: number) => ({
  id,
  conversationId,
  senderId: 'u1',
  type: 'TEXT',
  text: `m${i}`,
  media: null,
  location: null,
  replyTo: null,
  system: null,
  createdAt: T + i,
  editedAt: i === 0 ? T + 10 : null,
  deleted: false,
  fannedOut: true,
  counted: true,
});
const payload = {
  event: 'ride:location',
  kind: 'NONE',
  notificationId: 'n1',
  entityId: 'r1',
  sfx: '',
  deepLink: { tab: '', screen: '', params: { id: 'r1' } },
  surface: 'CON',
};

describe('migrate-listened-times', () => {
  it('converts every epoch-ms time (and ISO strings in realtime data) to Timestamps, page by page; a second run converts nothing', async () => {
    const writes: Array<Promise<unknown>> = [];
    for (let i = 0; i < 5; i++) writes.push(db().collection(ridesPath).doc(`r${i}`).set(legacyRide(i)));
    // One ride half converted already (a write of the new code between deploy and migration): only the rest moves.
    writes.push(
      db()
        .collection(ridesPath)
        .doc('r-half')
        .set({ ...legacyRide(9), createdAt: Timestamp.fromMillis(T + 9), share: null }),
    );
    for (const [c, n] of [
      ['c1', 2],
      ['c2', 1],
    ] as const)
      for (let i = 0; i < n; i++)
        writes.push(
          db()
            .doc(`${conversationsPath}/${c}/${messagesName}/m${i}`)
            .set(legacyMessage(c, `m${i}`, i)),
        );
    writes.push(
      db()
        .collection(membershipsPath)
        .doc('c1_u1')
        .set({
          conversationId: 'c1',
          userId: 'u1',
          role: 'MEMBER',
          surface: 'CON',
          joinedAt: T,
          lastActivityAt: T + 1,
          lastMessage: { id: 'm1', senderId: 'u1', type: 'TEXT', preview: 'm1', createdAt: T + 1 },
          unreadCount: 0,
          readUpToId: null,
          readUpToAt: 0,
          deliveredUpToAt: T + 1,
        }),
      db()
        .collection(realtimePath)
        .doc('e1')
        .set({
          recipientId: 'u1',
          type: 'ride:location',
          payload,
          data: { rideId: 'r1', driverId: 'd1', lat: 10.7, lng: 106.7, heading: null, speedKmh: null, at: new Date(T).toISOString() },
          createdAt: Timestamp.fromMillis(T),
          expireAt: Timestamp.fromMillis(T + 300_000),
        }),
      db()
        .collection(realtimePath)
        .doc('e2')
        .set({
          recipientId: 'u1',
          type: 'call:ring',
          payload: { ...payload, event: 'call.incoming' },
          data: { callId: 'c', callerId: 'u2', type: 'audio', ringExpiresAt: T + 30_000 },
          createdAt: Timestamp.fromMillis(T),
          expireAt: Timestamp.fromMillis(T + 86_400_000),
        }),
      db()
        .collection(paymentsPath)
        .doc('p1')
        .set({
          payerId: 'u1',
          amount: 100_000,
          currency: 'VND',
          purpose: 'TOPUP',
          ref: null,
          description: 'Top-up',
          method: 'GATEWAY',
          provider: 'MOCK',
          status: 'PARTIALLY_REFUNDED',
          payeeId: null,
          feeBp: 0,
          heldAmount: 0,
          capturedAmount: 0,
          refundedAmount: 30_000,
          refunds: [
            {
              id: 'f1',
              amount: 30_000,
              reason: 'r',
              by: 'u1',
              at: T + 60_000,
              gateway: { state: 'SETTLED', reference: 'x' },
              requestedAt: T + 59_000,
              requested: 30_000,
            },
          ],
          paymentUrl: null,
          gateway: { orderRef: 'p1', transactionNo: 'MOCK1', bankCode: 'MOCKBANK', responseCode: '00', paidAt: '20260601190000' },
          failureReason: null,
          expiresAt: T + 900_000,
          succeededAt: T + 1000,
          createdAt: T,
          updatedAt: T + 60_000,
        }),
      db().doc(`mig_${tag}_meta/seed`).set({ version: 1, description: 'x', generatedBy: 'test' }),
      // Times no Timestamp can hold (client-written or corrupt data): those documents are skipped, the run goes on.
      db()
        .collection(ridesPath)
        .doc('r-bad-nan')
        .set({ ...legacyRide(7), createdAt: Number.NaN }),
      db()
        .collection(ridesPath)
        .doc('r-bad-range')
        .set({ ...legacyRide(8), updatedAt: 1e20 }),
      db()
        .collection(realtimePath)
        .doc('e-bad')
        .set({
          recipientId: 'u1',
          type: 'ride:location',
          payload,
          data: { rideId: 'r1', driverId: 'd1', lat: 10.7, lng: 106.7, heading: null, speedKmh: null, at: '2026-13-45T99:99:00Z' },
          createdAt: T,
          expireAt: Timestamp.fromMillis(T + 300_000),
        }),
      // Presence is client-written and its updatedAt never read by the server: left out of the migration.
      db()
        .doc(`${presencePath}/chat_c1/members/u1`)
        .set({ expiresAt: Timestamp.fromMillis(T), updatedAt: T }),
    );
    await Promise.all(writes);
    const logged: Array<Record<string, unknown>> = [];
    setLogSink((entry) => void logged.push(entry));
    expect(contractProblems('RideDocument', (await db().collection(ridesPath).doc('r0').get()).data()!).length).toBeGreaterThan(0);

    const progress: MigrationProgress[] = [];
    const first = await migrateListenedTimes(documents, (p) => progress.push(p), 2).finally(() => setLogSink(() => undefined));
    const byPath = Object.fromEntries(first.map((p) => [p.document.split('/')[0], p]));
    expect(byPath[ridesPath]).toEqual({ document: `${ridesPath}/{rideId}`, pages: 4, read: 8, converted: 6, skipped: 2 });
    expect(byPath[conversationsPath]).toMatchObject({ read: 3, converted: 3, skipped: 0 });
    expect(byPath[membershipsPath]).toMatchObject({ read: 1, converted: 1, skipped: 0 });
    expect(byPath[realtimePath]).toMatchObject({ read: 3, converted: 2, skipped: 1 });
    expect(byPath[paymentsPath]).toMatchObject({ read: 1, converted: 1, skipped: 0 });
    expect(first.map((p) => p.document)).not.toContain(`mig_${tag}_meta/seed`); // no time fields
    expect(first.map((p) => p.document)).not.toContain(`${presencePath}/{roomId}/members/{userId}`);
    expect(progress.filter((p) => p.document.startsWith(ridesPath)).map((p) => [p.pages, p.read])).toEqual([
      [1, 2],
      [2, 4],
      [3, 6],
      [4, 8],
    ]);
    // Each skipped document is logged with its path and the field at fault, and left as it was.
    const skippedLines = logged.filter((e) => e.message === 'migrate-listened-times: document skipped').map((e) => [e.path, String(e.reason).split(':')[0]]);
    expect(skippedLines.sort()).toEqual([
      [`${realtimePath}/e-bad`, 'data.at'],
      [`${ridesPath}/r-bad-nan`, 'createdAt'],
      [`${ridesPath}/r-bad-range`, 'updatedAt'],
    ]);
    const badRide = (await db().collection(ridesPath).doc('r-bad-range').get()).data()!;
    expect([badRide.updatedAt, badRide.createdAt]).toEqual([1e20, T + 8]);
    expect((await db().doc(`${presencePath}/chat_c1/members/u1`).get()).data()).toEqual({ expiresAt: Timestamp.fromMillis(T), updatedAt: T });

    // Each converted document parses with its published schema and keeps its instants and its other fields.
    const ride = (await db().collection(ridesPath).doc('r3').get()).data()!;
    expect(contractProblems('RideDocument', ride)).toEqual([]);
    expect(ride).toEqual({
      ...legacyRide(3),
      ...Object.fromEntries(
        ['createdAt', 'confirmedAt', 'arrivedAt', 'pickedUpAt', 'completedAt', 'endedAt', 'updatedAt'].map((k) => [
          k,
          Timestamp.fromMillis(legacyRide(3)[k as 'createdAt']),
        ]),
      ),
      share: { tokenHash: 'h', expiresAt: Timestamp.fromMillis(T + 3) },
    });
    expect(contractProblems('RideDocument', (await db().collection(ridesPath).doc('r-half').get()).data()!)).toEqual([]);
    const message = (await db().doc(`${conversationsPath}/c1/${messagesName}/m0`).get()).data()!;
    expect([contractProblems('MessageDocument', message), message.createdAt, message.editedAt]).toEqual([
      [],
      Timestamp.fromMillis(T),
      Timestamp.fromMillis(T + 10),
    ]);
    const member = (await db().collection(membershipsPath).doc('c1_u1').get()).data()!;
    expect([contractProblems('ChatMembershipDocument', member), member.readUpToAt, member.lastMessage.createdAt]).toEqual([
      [],
      null,
      Timestamp.fromMillis(T + 1),
    ]);
    const [location, ring] = await Promise.all(['e1', 'e2'].map(async (e) => (await db().collection(realtimePath).doc(e).get()).data()!));
    expect([contractProblems('RealtimeEventDocument', location), location.data.at, ring.data.ringExpiresAt]).toEqual([
      [],
      Timestamp.fromMillis(T),
      Timestamp.fromMillis(T + 30_000),
    ]);
    const payment = (await db().collection(paymentsPath).doc('p1').get()).data()!;
    expect([contractProblems('PaymentDocument', payment), payment.refunds[0].at, payment.gateway.paidAt]).toEqual([
      [],
      Timestamp.fromMillis(T + 60_000),
      '20260601190000',
    ]);

    const updated = (await db().collection(ridesPath).doc('r0').get()).updateTime!;
    const second = await migrateListenedTimes(documents, undefined, 2);
    expect(second.map((p) => p.converted)).toEqual(second.map(() => 0));
    expect(second.map((p) => p.skipped)).toEqual(second.map((p) => ({ [`${ridesPath}/{rideId}`]: 2, [`${realtimePath}/{id}`]: 1 })[p.document] ?? 0));
    expect((await db().collection(ridesPath).doc('r0').get()).updateTime!.isEqual(updated)).toBe(true);
  });
});
