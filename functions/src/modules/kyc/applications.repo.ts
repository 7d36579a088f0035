import type { Transaction } from 'firebase-admin/firestore';
import { db } from '../../platform/firebase/firebase';
import { paginate } from '../../platform/firestore/paginate';
import { APPLICATIONS, KYC_PAPERS, OPEN_STATUSES, type ApplicationKind, type ApplicationRecord, type ApplicationStatus, type PaperRecord } from './applications.model';

const apps = () => db().collection(APPLICATIONS);
const papers = () => db().collection(KYC_PAPERS);
const withId = <T>(d: FirebaseFirestore.DocumentSnapshot) => ({ ...(d.data() as object), id: d.id }) as T;

/** A new SUBMITTED application (not yet written). */
export function newApplication(fields: { kind: ApplicationKind; userId: string; details: Record<string, unknown>; now: number; id?: string }): ApplicationRecord {
  return {
    id: fields.id ?? apps().doc().id,
    kind: fields.kind,
    userId: fields.userId,
    status: 'SUBMITTED',
    details: { ...fields.details },
    reason: null,
    reviewedBy: null,
    reviewedAt: null,
    grantedRoles: [],
    history: [{ status: 'SUBMITTED', at: fields.now, by: fields.userId, reason: null }],
    createdAt: fields.now,
    updatedAt: fields.now,
  };
}

export const applicationsRepo = {
  newId: () => apps().doc().id,
  ref: (id: string) => apps().doc(id),
  newPaperId: () => papers().doc().id,

  async get(id: string): Promise<ApplicationRecord | undefined> {
    const snap = await apps().doc(id).get();
    return snap.exists ? withId<ApplicationRecord>(snap) : undefined;
  },
  async txGet(tx: Transaction, id: string): Promise<ApplicationRecord | undefined> {
    const snap = await tx.get(apps().doc(id));
    return snap.exists ? withId<ApplicationRecord>(snap) : undefined;
  },
  async txOpenOf(tx: Transaction, userId: string, kind: ApplicationKind): Promise<ApplicationRecord[]> {
    const snap = await tx.get(apps().where('userId', '==', userId).where('kind', '==', kind));
    return snap.docs.map((d) => withId<ApplicationRecord>(d)).filter((a) => a.status !== 'REJECTED');
  },
  txCreate(tx: Transaction, app: ApplicationRecord): void {
    const { id, ...data } = app;
    tx.create(apps().doc(id), data);
  },
  txSave(tx: Transaction, app: ApplicationRecord): void {
    const { id, ...data } = app;
    tx.set(apps().doc(id), data);
  },
  async listOf(userId: string, kind?: ApplicationKind): Promise<ApplicationRecord[]> {
    let query = apps().where('userId', '==', userId);
    if (kind) query = query.where('kind', '==', kind);
    const snap = await query.get();
    return snap.docs.map((d) => withId<ApplicationRecord>(d)).sort((a, b) => b.createdAt - a.createdAt);
  },
  async list(kind: ApplicationKind, filter: { status?: ApplicationStatus; limit: number; cursor?: string }, caller: string) {
    let query = apps().where('kind', '==', kind);
    if (filter.status) query = query.where('status', '==', filter.status);
    const list = { limit: filter.limit, cursor: filter.cursor, query: `applications:${kind}:${filter.status ?? '*'}`, caller };
    return paginate(query, [{ field: 'createdAt', direction: 'desc' }], list, (d) => withId<ApplicationRecord>(d));
  },
  async countOpen(kind: ApplicationKind): Promise<number> {
    const snap = await apps().where('kind', '==', kind).where('status', 'in', [...OPEN_STATUSES]).count().get();
    return snap.data().count;
  },

  // Papers
  async papersOf(applicationId: string): Promise<PaperRecord[]> {
    const snap = await papers().where('applicationId', '==', applicationId).get();
    return snap.docs.map((d) => withId<PaperRecord>(d)).sort((a, b) => a.createdAt - b.createdAt);
  },
  async txPapersOf(tx: Transaction, applicationId: string): Promise<PaperRecord[]> {
    const snap = await tx.get(papers().where('applicationId', '==', applicationId));
    return snap.docs.map((d) => withId<PaperRecord>(d));
  },
  async papersOwnedBy(ownerId: string): Promise<PaperRecord[]> {
    const snap = await papers().where('ownerId', '==', ownerId).get();
    return snap.docs.map((d) => withId<PaperRecord>(d)).sort((a, b) => b.createdAt - a.createdAt);
  },
  async getPaper(id: string): Promise<PaperRecord | undefined> {
    const snap = await papers().doc(id).get();
    return snap.exists ? withId<PaperRecord>(snap) : undefined;
  },
  async createPaper(paper: PaperRecord): Promise<void> {
    const { id, ...data } = paper;
    await papers().doc(id).create(data);
  },
  async deletePaper(id: string): Promise<void> {
    await papers().doc(id).delete();
  },
};
