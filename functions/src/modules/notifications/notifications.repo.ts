import { stableId } from '../../platform/kits/ids/stable-id';
import { db, firestoreApi, inTransaction, isAlreadyExists } from '../../platform/core/firebase/firebase';
import { paginate } from '../../platform/kits/firestore/paginate';
import { storedFields } from '../../platform/kits/firestore/documents';
import {
  BROADCAST_PAGE_SIZE,
  INBOX,
  PREFERENCES,
  preferencesDocument,
  PRESENCE,
  PUSH_DEVICES,
  PUSH_TOKENS,
  REALTIME,
  type Preferences,
} from './notifications.model';
import { timestampOf } from '../../platform/kits/time/time';

export { INBOX, PREFERENCES, PRESENCE, PUSH_DEVICES, PUSH_TOKENS, REALTIME };

// Collections of the hub. Clients read their own inbox, realtime events and preferences, and write
// their own presence (firestore.rules); everything else goes through the API.
// Collection handles built once: a fan-out addresses thousands of documents, and each collection() call
// parses and validates its path again.
const collections = new Map<string, FirebaseFirestore.CollectionReference>();
const col = (name: string): FirebaseFirestore.CollectionReference => {
  let ref = collections.get(name);
  if (!ref) collections.set(name, (ref = db().collection(name)));
  return ref;
};
// The whole hash (43 characters): a token's document id, found again from the token alone.
export const tokenDocId = (token: string) => stableId({ key: token, length: 43 });

const BATCH_WRITES = 500;
// A fan-out's creates go in batches of 250, not Firestore's 500: more batches commit side by side, and a
// batch that meets a repeated delivery is redone item by item at half the cost. A raw write of 1,000 / 5,000
// documents took 41 / 247 ms in 250s against 45 / 286 ms in 500s on the emulator (P3 in the bench).
const DELIVERY_BATCH_WRITES = 250;
const IN_QUERY_VALUES = 30;

// Reads of a fan-out run beside its writes (the push decisions need them): two chunks at a time, not all at
// once, so they take turns with the write batches instead of crowding the database together (P3 in the bench).
const READ_LANES = 2;
async function getAllChunked(refs: FirebaseFirestore.DocumentReference[]): Promise<FirebaseFirestore.DocumentSnapshot[]> {
  const chunks: Array<typeof refs> = [];
  for (let i = 0; i < refs.length; i += BATCH_WRITES) chunks.push(refs.slice(i, i + BATCH_WRITES));
  const out: FirebaseFirestore.DocumentSnapshot[][] = new Array(chunks.length);
  let next = 0;
  const lane = async () => {
    while (next < chunks.length) {
      const i = next++;
      out[i] = await db().getAll(...chunks[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_LANES, chunks.length) }, lane));
  return out.flat();
}

const fieldValue = () => firestoreApi().FieldValue;

// A large fan-out whose recipients' ids span few device documents (listed accounts in id order; audiences
// where most people have no app signed in) reads those documents with one range query instead of one read
// per recipient: a count first (one read per 1,000 entries, counting stops past the recipients' number),
// and point reads after all when the span holds more devices than recipients. From one audience page of
// the broadcast job (500 accounts in id order, the span it is meant for); smaller fan-outs (a chat group,
// one entity's parties) have ids spread at random, so their span is dense and the count would be wasted.
const RANGE_READ_MIN = BROADCAST_PAGE_SIZE;
// Ids whose JavaScript order is Firestore's document-id order (ASCII, not the reserved `__…`).
const PLAIN_ID = /^(?!__)[A-Za-z0-9_-]+$/;
async function deviceDocsOf(userIds: string[]): Promise<FirebaseFirestore.DocumentSnapshot[]> {
  const pointReads = () => getAllChunked(userIds.map((u) => col(PUSH_DEVICES).doc(u)));
  if (userIds.length < RANGE_READ_MIN || !userIds.every((id) => PLAIN_ID.test(id))) return pointReads();
  let first = userIds[0];
  let last = userIds[0];
  for (const id of userIds) {
    if (id < first) first = id;
    if (id > last) last = id;
  }
  const documentId = firestoreApi().FieldPath.documentId();
  const span = col(PUSH_DEVICES)
    .where(documentId, '>=', col(PUSH_DEVICES).doc(first))
    .where(documentId, '<=', col(PUSH_DEVICES).doc(last))
    .limit(userIds.length + 1);
  const held = (await span.count().get()).data().count;
  if (held === 0) return [];
  if (held > userIds.length) return pointReads();
  const found = await span.get();
  // More devices appeared in the span since the count: the point reads are the cheaper read again.
  if (found.size > userIds.length) return pointReads();
  const wanted = new Set(userIds);
  return found.docs.filter((d) => wanted.has(d.id));
}

// Deletes token documents and their entries in their owners' device documents.
function removeTokenDocs(tx: FirebaseFirestore.Transaction, snaps: FirebaseFirestore.DocumentSnapshot[]): number {
  const found = snaps.filter((d) => d.exists);
  for (const d of found) {
    tx.delete(d.ref);
    tx.set(col(PUSH_DEVICES).doc(d.get('userId') as string), { tokens: { [d.id]: fieldValue().delete() } }, { merge: true });
  }
  return found.length;
}

function writeDelivery(writer: FirebaseFirestore.WriteBatch | FirebaseFirestore.Transaction, d: DeliveryDocs, now: number): void {
  const createdAt = timestampOf(now);
  if (d.inbox) writer.create(col(INBOX).doc(d.inbox.id), { ...d.inbox.data, createdAt });
  if (d.realtime) writer.create(col(REALTIME).doc(d.realtime.id), { ...d.realtime.data, createdAt, expireAt: timestampOf(now + d.realtime.ttlMs) });
}

/** The documents one delivery creates. */
export interface DeliveryDocs {
  inbox?: { id: string; data: Record<string, unknown> };
  realtime?: { id: string; data: Record<string, unknown>; ttlMs: number };
}

export interface PushTokenRecord {
  userId: string;
  token: string;
  surface: 'CON' | 'PAR' | 'DRV';
  platform: 'android' | 'ios' | 'web';
  deviceId: string;
  sessionId: string;
  createdAt: number;
  updatedAt: number;
}

export const notificationsRepo = {
  // Each delivery's documents (inbox item and/or realtime event) are created together, all or none, in
  // batches of up to DELIVERY_BATCH_WRITES writes. create() is the idempotency guard: a batch that meets an
  // existing document (a repeated delivery) is redone delivery by delivery, and those already there return false.
  async createDeliveries(deliveries: DeliveryDocs[], now: number): Promise<boolean[]> {
    const created = deliveries.map(() => true);
    const commit = async (members: number[]) => {
      const batch = db().batch();
      for (const i of members) writeDelivery(batch, deliveries[i], now);
      await batch.commit();
    };
    // Delivery by delivery: those already there come back false.
    const commitEach = (members: number[]) =>
      Promise.all(
        members.map(async (i) => {
          try {
            await commit([i]);
          } catch (err) {
            if (!isAlreadyExists(err)) throw err;
            created[i] = false;
          }
        }),
      );
    const groups: number[][] = [];
    let writes = DELIVERY_BATCH_WRITES;
    deliveries.forEach((d, i) => {
      const size = (d.inbox ? 1 : 0) + (d.realtime ? 1 : 0);
      if (size === 0) return;
      if (writes + size > DELIVERY_BATCH_WRITES) {
        groups.push([]);
        writes = 0;
      }
      groups[groups.length - 1].push(i);
      writes += size;
    });
    await Promise.all(
      groups.map(async (group) => {
        try {
          await commit(group);
        } catch (err) {
          if (!isAlreadyExists(err)) throw err;
          if (group.length === 1) {
            created[group[0]] = false;
            return;
          }
          // A retried delivery: find what is already there in one read, write the rest one by one.
          const existing = await db().getAll(
            ...group.map((i) => col(deliveries[i].inbox ? INBOX : REALTIME).doc((deliveries[i].inbox ?? deliveries[i].realtime)!.id)),
          );
          const missing = group.filter((i, k) => {
            if (existing[k].exists) created[i] = false;
            return !existing[k].exists;
          });
          await commitEach(missing);
        }
      }),
    );
    return created;
  },

  /**
   * Creates or rewrites an aggregated inbox item in a transaction: `change` sees the item as stored (undefined when
   * there is none) and answers its new fields and whether to push, or undefined to leave it as it is.
   */
  async aggregateInbox(
    id: string,
    change: (current: FirebaseFirestore.DocumentData | undefined) => { fields: Record<string, unknown>; push: boolean } | undefined,
    now: number,
  ): Promise<'pushed' | 'written' | 'unchanged'> {
    const ref = col(INBOX).doc(id);
    return inTransaction(async (tx) => {
      const snap = await tx.get(ref);
      const next = change(snap.exists ? snap.data() : undefined);
      if (!next) return 'unchanged';
      tx.set(ref, { ...next.fields, read: false, readAt: null, createdAt: timestampOf(now) });
      return next.push ? 'pushed' : 'written';
    });
  },

  /** The same documents as part of a caller's transaction. */
  txCreateDeliveries(tx: FirebaseFirestore.Transaction, deliveries: DeliveryDocs[], now: number): void {
    for (const d of deliveries) writeDelivery(tx, d, now);
  },

  async preferences(userId: string): Promise<Partial<Preferences> | undefined> {
    return (await col(PREFERENCES).doc(userId).get()).data() as Partial<Preferences> | undefined;
  },
  /** Stored preferences by user (absent: defaults apply). */
  async preferencesOf(userIds: string[]): Promise<Map<string, Partial<Preferences>>> {
    const snaps = await getAllChunked(userIds.map((u) => col(PREFERENCES).doc(u)));
    return new Map(snaps.filter((d) => d.exists).map((d) => [d.id, d.data() as Partial<Preferences>]));
  },
  async savePreferences(userId: string, prefs: Preferences, now: number): Promise<void> {
    await col(PREFERENCES)
      .doc(userId)
      .set(storedFields(preferencesDocument, { ...prefs, updatedAt: now }));
  },

  // `presence/{roomId}/members/{userId}` with `expiresAt` renewed by the client's heartbeat.
  async presentIn(roomId: string, userIds: string[], now: number): Promise<Set<string>> {
    const snaps = await getAllChunked(userIds.map((u) => col(PRESENCE).doc(roomId).collection('members').doc(u)));
    return new Set(snaps.filter((d) => ((d.get('expiresAt') as FirebaseFirestore.Timestamp | undefined)?.toMillis() ?? 0) > now).map((d) => d.id));
  },

  async tokensOf(userId: string, surface: string): Promise<PushTokenRecord[]> {
    return this.tokensOfUsers([userId], surface);
  },
  /** The tokens of many users on one surface: their device documents, read together. */
  async tokensOfUsers(userIds: string[], surface: string): Promise<PushTokenRecord[]> {
    const snaps = await deviceDocsOf(userIds);
    return snaps.flatMap((d) => Object.values((d.get('tokens') as Record<string, PushTokenRecord> | undefined) ?? {})).filter((t) => t.surface === surface);
  },
  // `push_tokens/{tokenId}` is a token's one owner (and the surface index broadcasts page through);
  // `push_devices/{userId}` holds the same records per user, so a fan-out reads N users' tokens with
  // getAll instead of one query per 30 users. Both change together, in transactions.
  async saveToken(record: PushTokenRecord): Promise<'created' | 'updated'> {
    const id = tokenDocId(record.token);
    const ref = col(PUSH_TOKENS).doc(id);
    return inTransaction(async (tx) => {
      const existing = await tx.get(ref);
      const previousOwner = existing.get('userId') as string | undefined;
      const saved = existing.exists ? { ...record, createdAt: existing.get('createdAt') as number } : record;
      tx.set(ref, saved);
      if (previousOwner && previousOwner !== record.userId)
        tx.set(col(PUSH_DEVICES).doc(previousOwner), { tokens: { [id]: fieldValue().delete() } }, { merge: true });
      tx.set(col(PUSH_DEVICES).doc(record.userId), { tokens: { [id]: saved } }, { merge: true });
      return existing.exists ? 'updated' : 'created';
    });
  },
  async tokenOwner(token: string): Promise<string | undefined> {
    return (await col(PUSH_TOKENS).doc(tokenDocId(token)).get()).get('userId') as string | undefined;
  },
  async deleteTokens(tokens: string[]): Promise<void> {
    if (tokens.length === 0) return;
    const ids = [...new Set(tokens.map(tokenDocId))];
    await inTransaction(async (tx) => removeTokenDocs(tx, await tx.getAll(...ids.map((id) => col(PUSH_TOKENS).doc(id)))));
  },
  async deleteTokensOfSessions(sessionIds: string[]): Promise<number> {
    let removed = 0;
    for (let i = 0; i < sessionIds.length; i += IN_QUERY_VALUES) {
      const query = col(PUSH_TOKENS).where('sessionId', 'in', sessionIds.slice(i, i + IN_QUERY_VALUES));
      removed += await inTransaction(async (tx) => removeTokenDocs(tx, (await tx.get(query)).docs));
    }
    return removed;
  },

  async inbox(userId: string, opts: { limit: number; cursor?: string; unreadOnly?: boolean }) {
    let query = col(INBOX).where('recipientId', '==', userId);
    if (opts.unreadOnly) query = query.where('read', '==', false);
    const page = await paginate(
      query,
      [{ field: 'createdAt', direction: 'desc' }],
      { ...opts, query: `inbox:${opts.unreadOnly ? 'unread' : 'all'}`, caller: userId },
      (d) => ({ ...d.data(), id: d.id }),
    );
    return { docs: page.items, nextCursor: page.nextCursor };
  },
  async unreadCount(userId: string): Promise<number> {
    return (await col(INBOX).where('recipientId', '==', userId).where('read', '==', false).count().get()).data().count;
  },
  // Marks the caller's own items; ids of others are ignored.
  async markRead(userId: string, ids: string[] | 'all', read: boolean, now: number): Promise<number> {
    if (ids !== 'all' && ids.length === 0) return 0;
    const refs =
      ids === 'all'
        ? (await col(INBOX).where('recipientId', '==', userId).where('read', '==', !read).get()).docs.map((d) => d.ref)
        : (await db().getAll(...ids.map((id) => col(INBOX).doc(id)))).filter((d) => d.exists && d.get('recipientId') === userId).map((d) => d.ref);
    const writer = db().bulkWriter();
    for (const ref of refs) void writer.update(ref, { read, readAt: read ? timestampOf(now) : null });
    await writer.close();
    return refs.length;
  },
};
