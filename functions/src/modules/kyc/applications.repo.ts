import type { Transaction } from 'firebase-admin/firestore';
import { paginate } from '../../platform/kits/firestore/paginate';
import { readRecord, typedCollection } from '../../platform/kits/firestore/records';
import {
  APPLICATIONS,
  KYC_PAPERS,
  OPEN_STATUSES,
  type ApplicationKind,
  type ApplicationRecord,
  type ApplicationStatus,
  type PaperRecord,
} from './applications.model';

const apps = () => typedCollection<ApplicationRecord>(APPLICATIONS);
const papers = () => typedCollection<PaperRecord>(KYC_PAPERS);

/** A new SUBMITTED application (not yet written). */
export function newApplication(fields: {
  kind: ApplicationKind;
  userId: string;
  details: Record<string, unknown>;
  now: number;
  id?: string;
}): ApplicationRecord {
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

  get: (id: string, tx?: Transaction) => readRecord(apps().doc(id), tx),
  async txOpenOf(tx: Transaction, userId: string, kind: ApplicationKind): Promise<ApplicationRecord[]> {
    const snap = await tx.get(apps().where('userId', '==', userId).where('kind', '==', kind));
    return snap.docs.map((d) => d.data()).filter((a) => a.status !== 'REJECTED');
  },
  txCreate(tx: Transaction, app: ApplicationRecord): void {
    tx.create(apps().doc(app.id), app);
  },
  txSave(tx: Transaction, app: ApplicationRecord): void {
    tx.set(apps().doc(app.id), app);
  },
  async listOf(userId: string, kind?: ApplicationKind): Promise<ApplicationRecord[]> {
    let query = apps().where('userId', '==', userId);
    if (kind) query = query.where('kind', '==', kind);
    const snap = await query.get();
    return snap.docs.map((d) => d.data()).sort((a, b) => b.createdAt - a.createdAt);
  },
  async list(kind: ApplicationKind, filter: { status?: ApplicationStatus; limit: number; cursor?: string }, caller: string) {
    let query = apps().where('kind', '==', kind);
    if (filter.status) query = query.where('status', '==', filter.status);
    const list = { limit: filter.limit, cursor: filter.cursor, query: `applications:${kind}:${filter.status ?? '*'}`, caller };
    return paginate(query, [{ field: 'createdAt', direction: 'desc' }], list, (d) => d.data());
  },
  async countOpen(kind: ApplicationKind): Promise<number> {
    const snap = await apps()
      .where('kind', '==', kind)
      .where('status', 'in', [...OPEN_STATUSES])
      .count()
      .get();
    return snap.data().count;
  },

  // Papers
  async papersOf(applicationId: string): Promise<PaperRecord[]> {
    const snap = await papers().where('applicationId', '==', applicationId).get();
    return snap.docs.map((d) => d.data()).sort((a, b) => a.createdAt - b.createdAt);
  },
  async txPapersOf(tx: Transaction, applicationId: string): Promise<PaperRecord[]> {
    const snap = await tx.get(papers().where('applicationId', '==', applicationId));
    return snap.docs.map((d) => d.data());
  },
  async papersOwnedBy(ownerId: string): Promise<PaperRecord[]> {
    const snap = await papers().where('ownerId', '==', ownerId).get();
    return snap.docs.map((d) => d.data()).sort((a, b) => b.createdAt - a.createdAt);
  },
  getPaper: (id: string) => readRecord(papers().doc(id)),
  async createPaper(paper: PaperRecord): Promise<void> {
    await papers().doc(paper.id).create(paper);
  },
  async deletePaper(id: string): Promise<void> {
    await papers().doc(id).delete();
  },
};
