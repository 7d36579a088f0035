import { iso, isoOrNull } from '../../platform/kits/time/time';
import { randomUUID } from 'node:crypto';
import { sha256 } from '../../platform/kits/ids/digest';
import { stableId } from '../../platform/kits/ids/stable-id';
import { db, inTransaction } from '../../platform/core/firebase/firebase';
import { AppError, ConflictError, NotFoundError } from '../../platform/core/errors/app-error';
import { logger } from '../../platform/core/logging/logger';
import { asWritten } from '../../platform/kits/i18n';
import type { Surface } from './events';
import type { Hub } from './hub';
import { BROADCAST_PAGE_SIZE, BROADCASTS, INBOX } from './notifications.model';
import { typedCollection } from '../../platform/kits/firestore/records';
import { NOTIFICATIONS_EVENTS } from './notifications.events';
import { activeAccountsPage } from '../users';

// admin.broadcast as a resumable job: `broadcasts/{id}` holds the message and the progress (which app,
// the last account id done, counts). Each page of accounts is dispatched through the hub (inbox items
// with deterministic ids: a redone page creates nothing twice, and push goes only with a new item), then
// the cursor is saved. A runner holds a lease on the document, so two deliveries of the task never work
// at once; one that dies leaves a lease that expires, and the retried task resumes at the cursor.

export type BroadcastStatus = 'QUEUED' | 'RUNNING' | 'DONE';

export interface BroadcastRecord {
  id: string;
  title: string;
  body: string;
  surfaces: Surface[];
  status: BroadcastStatus;
  createdBy: string;
  requestHash: string;
  surfaceIndex: number;
  cursor: string | null;
  pages: number;
  inboxItems: number;
  pushesSent: number;
  leaseOwner: string | null;
  leaseUntil: number;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
}

export class UnprocessableError extends AppError {
  constructor(message: string) {
    super(422, message);
    this.code = 'IDEMPOTENCY_KEY_REUSED';
  }
}

const broadcasts = () => typedCollection<BroadcastRecord>(BROADCASTS);
const fromSnap = (snap: FirebaseFirestore.DocumentSnapshot<BroadcastRecord>): BroadcastRecord => snap.data()!;
// The request's digest, compared when a key comes back (not an id).
const sha = (text: string) => sha256(text, 'base64url');
const LEASE_MS = 5 * 60_000;

export function broadcastView(b: BroadcastRecord) {
  return {
    broadcastId: b.id,
    status: b.status,
    title: b.title,
    body: b.body,
    surfaces: b.surfaces,
    pagesDone: b.pages,
    inboxItems: b.inboxItems,
    pushesSent: b.pushesSent,
    createdAt: iso(b.createdAt),
    updatedAt: iso(b.updatedAt),
    finishedAt: isoOrNull(b.finishedAt),
  };
}

export interface BroadcastRequest {
  title: string;
  body: string;
  surfaces: Surface[];
}

/**
 * Records a broadcast (or finds the one this Idempotency-Key made) and returns it with whether it still
 * needs a runner. The same key with another message is refused (422); without a key every call is new.
 */
export async function createBroadcast(
  adminId: string,
  request: BroadcastRequest,
  idempotencyKey: string | undefined,
  now: number,
): Promise<{ broadcast: BroadcastRecord; created: boolean }> {
  const surfaces = [...new Set(request.surfaces)];
  const requestHash = sha(JSON.stringify([request.title, request.body, surfaces]));
  const id = idempotencyKey ? stableId({ caller: adminId, key: idempotencyKey, prefix: 'bc-', length: 28 }) : `bc-${randomUUID()}`;
  return inTransaction(async (tx) => {
    const snap = await tx.get(broadcasts().doc(id));
    if (snap.exists) {
      const existing = fromSnap(snap);
      if (existing.requestHash !== requestHash) throw new UnprocessableError('This Idempotency-Key was used for another broadcast');
      return { broadcast: existing, created: false };
    }
    const broadcast: BroadcastRecord = {
      id,
      title: request.title,
      body: request.body,
      surfaces,
      status: 'QUEUED',
      createdBy: adminId,
      requestHash,
      surfaceIndex: 0,
      cursor: null,
      pages: 0,
      inboxItems: 0,
      pushesSent: 0,
      leaseOwner: null,
      leaseUntil: 0,
      createdAt: now,
      updatedAt: now,
      finishedAt: null,
    };
    tx.create(broadcasts().doc(id), broadcast);
    return { broadcast, created: true };
  });
}

export async function getBroadcast(id: string): Promise<BroadcastRecord> {
  const snap = await broadcasts().doc(id).get();
  if (!snap.exists) throw new NotFoundError('Broadcast not found');
  return fromSnap(snap);
}

export interface RunOptions {
  hub: Pick<Hub, 'dispatch'>;
  pageSize?: number;
  /** Stop after this long and answer 'more' (the task re-enqueues itself); the cursor is saved. */
  budgetMs?: number;
  now?: () => number;
  /** Tests: called after a page was dispatched, before its cursor is saved (a crash there redoes the page). */
  afterDispatch?: (page: number) => void | Promise<void>;
}

/** Runs pages of a broadcast until it is done ('done') or the budget is spent ('more'). */
export async function runBroadcast(id: string, opts: RunOptions): Promise<'done' | 'more'> {
  const now = opts.now ?? Date.now;
  const pageSize = opts.pageSize ?? BROADCAST_PAGE_SIZE;
  const owner = randomUUID();
  const started = now();
  let current = await acquireLease(id, owner, now());
  if (current === 'done') return 'done';
  try {
    for (;;) {
      if (current.surfaceIndex >= current.surfaces.length) {
        await finish(id, owner, now());
        return 'done';
      }
      if (opts.budgetMs !== undefined && now() - started >= opts.budgetMs) return 'more';
      const surface = current.surfaces[current.surfaceIndex];
      const earlierSurfaces = current.surfaces.slice(0, current.surfaceIndex);
      const accounts = await activeAccountsPage({ hat: surface }, current.cursor, pageSize);
      const ids = accounts.map((a) => a.id);
      // This page's items: its accounts not reached on an earlier app of the list (one item per account,
      // its id has no surface), whether created now or by a run that died before saving this page.
      const delivered = accounts.filter((a) => !a.hats.some((h) => (earlierSurfaces as string[]).includes(h))).length;
      let pushed = 0;
      if (ids.length > 0) {
        // The administrator's words go out as written, in whatever language they chose (no account's language is read).
        const reports = await opts.hub.dispatch(
          NOTIFICATIONS_EVENTS.notice({
            event: 'admin.broadcast',
            recipients: ids.map((userId) => ({ userId, surface })),
            entityId: id,
            text: asWritten({ title: current.title, body: current.body }),
          }),
        );
        for (const r of reports) if ('sent' in r.push) pushed += r.push.sent;
      }
      await opts.afterDispatch?.(current.pages + 1);
      const lastPage = ids.length < pageSize;
      current = await savePage(id, owner, {
        surfaceIndex: lastPage ? current.surfaceIndex + 1 : current.surfaceIndex,
        cursor: lastPage ? null : ids[ids.length - 1],
        created: delivered,
        pushed,
        now: now(),
      });
    }
  } finally {
    // A runner that stops (budget, failure) frees the document for the next delivery at once.
    await releaseLease(id, owner).catch((err: Error) => logger.warn('broadcast lease not released; it expires', { broadcastId: id, error: err.message }));
  }
}

async function acquireLease(id: string, owner: string, now: number): Promise<BroadcastRecord | 'done'> {
  return inTransaction(async (tx) => {
    const snap = await tx.get(broadcasts().doc(id));
    if (!snap.exists) throw new NotFoundError('Broadcast not found');
    const b = fromSnap(snap);
    if (b.status === 'DONE') return 'done' as const;
    // Another runner works on it: fail, so the task is retried later (after that lease, if it died).
    if (b.leaseOwner && b.leaseUntil > now) throw new ConflictError('Another runner holds this broadcast').withCode('JOB_BUSY');
    tx.update(snap.ref, { status: 'RUNNING', leaseOwner: owner, leaseUntil: now + LEASE_MS, updatedAt: now });
    return { ...b, status: 'RUNNING' as const, leaseOwner: owner, leaseUntil: now + LEASE_MS };
  });
}

async function savePage(
  id: string,
  owner: string,
  page: { surfaceIndex: number; cursor: string | null; created: number; pushed: number; now: number },
): Promise<BroadcastRecord> {
  return inTransaction(async (tx) => {
    const snap = await tx.get(broadcasts().doc(id));
    const b = fromSnap(snap);
    if (b.leaseOwner !== owner) throw new ConflictError('The broadcast lease was lost');
    const next: BroadcastRecord = {
      ...b,
      surfaceIndex: page.surfaceIndex,
      cursor: page.cursor,
      pages: b.pages + 1,
      inboxItems: b.inboxItems + page.created,
      pushesSent: b.pushesSent + page.pushed,
      leaseUntil: page.now + LEASE_MS,
      updatedAt: page.now,
    };
    tx.update(snap.ref, {
      surfaceIndex: next.surfaceIndex,
      cursor: next.cursor,
      pages: next.pages,
      inboxItems: next.inboxItems,
      pushesSent: next.pushesSent,
      leaseUntil: next.leaseUntil,
      updatedAt: next.updatedAt,
    });
    return next;
  });
}

async function finish(id: string, owner: string, now: number): Promise<void> {
  await inTransaction(async (tx) => {
    const snap = await tx.get(broadcasts().doc(id));
    if (snap.get('leaseOwner') !== owner) throw new ConflictError('The broadcast lease was lost');
    // The per-page counts assume each page's accounts; a resumed page read after the audience changed (an account
    // locked between a crash and the retry) would miss an item the crashed run wrote. The final figure is counted.
    const inboxItems = (await tx.get(db().collection(INBOX).where('entityId', '==', id).count())).data().count;
    tx.update(snap.ref, { status: 'DONE', finishedAt: now, updatedAt: now, inboxItems });
  });
}

async function releaseLease(id: string, owner: string): Promise<void> {
  await inTransaction(async (tx) => {
    const snap = await tx.get(broadcasts().doc(id));
    if (snap.get('leaseOwner') === owner) tx.update(snap.ref, { leaseOwner: null, leaseUntil: 0 });
  });
}
