import type { Transaction } from 'firebase-admin/firestore';
import { db } from '../../platform/core/firebase/firebase';
import { readRecord, typedCollection } from '../../platform/kits/firestore/records';
import { readHistory, type TransitionStore } from '../../platform/kits/state-machine/state-machine';
import { STATUS_INCIDENTS } from './status.collections';
import type { IncidentAction, IncidentStatus } from './status.machine';
import type { IncidentRecord } from './status.model';

const incidents = () => typedCollection<IncidentRecord>(STATUS_INCIDENTS);

export const statusRepo = {
  newId: () => db().collection(STATUS_INCIDENTS).doc().id,
  get: (id: string, tx?: Transaction) => readRecord(incidents().doc(id), tx),
  async create(record: IncidentRecord): Promise<void> {
    await incidents().doc(record.id).create(record);
  },
  /** Incidents not resolved (as stored: one past its monitoring window is settled by the reader), newest first. */
  async unresolved(limit: number): Promise<IncidentRecord[]> {
    const snap = await incidents().where('status', 'in', ['OPEN', 'MONITORING']).orderBy('createdAt', 'desc').limit(limit).get();
    return snap.docs.map((d) => d.data());
  },
  /** The latest resolved incidents, last resolved first. */
  async resolved(limit: number): Promise<IncidentRecord[]> {
    const snap = await incidents().where('status', '==', 'RESOLVED').orderBy('resolvedAt', 'desc').limit(limit).get();
    return snap.docs.map((d) => d.data());
  },
  /** The incident as the state-machine kit moves it (its moves go to `status_incidents/{id}/events`). */
  store(id: string): TransitionStore<IncidentRecord, IncidentStatus, IncidentAction> {
    return {
      load: (tx) => readRecord(incidents().doc(id), tx),
      save: (tx, next) => {
        tx.set(incidents().doc(id), next);
      },
      ref: () => db().collection(STATUS_INCIDENTS).doc(id),
    };
  },
  history: (id: string) => readHistory<IncidentStatus, IncidentAction>(db().collection(STATUS_INCIDENTS).doc(id)),
};
