import type { DocumentReference, DocumentSnapshot, Transaction } from 'firebase-admin/firestore';

// A transaction's first read begins it: reads issued side by side wait for that one to answer, then go out together,
// so `Promise.all` of five document reads costs two round trips. This view of a transaction holds the reads of one
// turn of the event loop (`get` of documents and queries, `getAll`), then sends the document reads as one `getAll`
// (which begins the transaction) and the queries after it: one round trip for the documents, a second only for queries.
// Writes and everything else go to the transaction itself. Read snapshots keep their reference's converter.

interface Waiting<T> {
  resolve(value: T): void;
  reject(err: unknown): void;
}

const callCatching = <T>(read: () => Promise<T>): Promise<T> => {
  try {
    return read();
  } catch (err) {
    return Promise.reject(err);
  }
};

/**
 * The view, and `close` for when the attempt's function has settled: the SDK runs every attempt of a transaction on
 * one Transaction object, so a read still waiting then is refused rather than sent into the next attempt.
 */
export function readsTogether(tx: Transaction): { view: Transaction; close(): void } {
  let closed = false;
  let documents: Array<Waiting<DocumentSnapshot> & { ref: DocumentReference }> = [];
  let queries: Array<(ended?: Error) => void> = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    const [docs, rest] = [documents, queries];
    documents = [];
    queries = [];
    if (closed) {
      const ended = new Error('A read was sent after its transaction attempt had ended');
      docs.forEach((d) => d.reject(ended));
      rest.forEach((send) => send(ended));
      return;
    }
    // The SDK throws some refusals at once (a read after a write): every read of the batch gets them.
    if (docs.length > 0)
      callCatching(() => tx.getAll(...docs.map((d) => d.ref))).then(
        (snaps) => docs.forEach((d, i) => d.resolve(snaps[i])),
        (err: unknown) => docs.forEach((d) => d.reject(err)),
      );
    for (const send of rest) send();
  };
  // setImmediate, not a microtask: reads started a few promise hops later (an `async` helper's first await) still
  // join the batch.
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(flush);
  };
  const isDocument = (x: unknown): x is DocumentReference =>
    typeof (x as DocumentReference | null)?.path === 'string' && typeof (x as DocumentReference).collection === 'function';
  const get = (target: unknown) =>
    new Promise((resolve, reject) => {
      if (isDocument(target)) documents.push({ ref: target, resolve: resolve as Waiting<DocumentSnapshot>['resolve'], reject });
      else queries.push((ended) => (ended ? reject(ended) : callCatching(() => (tx.get as (t: unknown) => Promise<unknown>)(target)).then(resolve, reject)));
      schedule();
    });
  // getAll joins the batch too (field masks and other read options go to the transaction as they are).
  const getAll = (...refs: Parameters<Transaction['getAll']>) =>
    refs.every(isDocument) ? Promise.all(refs.map((ref) => get(ref) as Promise<DocumentSnapshot>)) : tx.getAll(...refs);
  const view = new Proxy(tx, {
    get(target, prop) {
      if (prop === 'get') return get;
      if (prop === 'getAll') return getAll;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return {
    view,
    close: () => {
      closed = true;
    },
  };
}
