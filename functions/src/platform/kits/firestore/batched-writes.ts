import type { BulkWriter, DocumentReference, Precondition, UpdateData, WriteResult } from 'firebase-admin/firestore';
import { db } from '../../core/firebase/firebase';

// Independent single-document writes from concurrent requests (driver position reports: hundreds a second on one
// instance) share BatchWrite calls: each write waits at most `windowMs` for others, then they go together. Unlike a
// batch, each write succeeds or fails on its own (its own precondition), and each caller awaits only its own result.

export interface BatchedWrites {
  update<T>(ref: DocumentReference<T>, data: UpdateData<T>, precondition?: Precondition): Promise<WriteResult>;
}

export function createBatchedWrites(windowMs = 10): BatchedWrites {
  let open: BulkWriter | undefined;
  const writer = () => {
    if (open) return open;
    // No ramp-up throttle: these are updates of existing documents spread over many keys, each at most once a second.
    const bulk = db().bulkWriter({ throttling: false });
    open = bulk;
    setTimeout(() => {
      if (open === bulk) open = undefined;
      bulk.close().catch(() => undefined);
    }, windowMs);
    return bulk;
  };
  return {
    // BulkWriter's overloads do not narrow a generic UpdateData<T>; the shapes are the same.
    update: (ref, data, precondition) => writer().update(ref as DocumentReference, data as UpdateData<FirebaseFirestore.DocumentData>, precondition),
  };
}
