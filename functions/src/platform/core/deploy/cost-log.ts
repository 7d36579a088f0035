import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import { db, firestoreApi } from '../firebase/firebase';

// Firestore bills each document read, written and deleted. While the test suite runs (FIRESTORE_COST_LOG=<file>),
// every API operation, trigger and task run counts what it costs in those units, and one line per run is appended
// to that file: `npm test` checks each operation against its budget (scripts/cost-check.mjs, functions/cost-budgets.json)
// and prints the most expensive. Counted as billed: a document get is a read whether it exists or not, a query
// reads the documents it returns (at least one), an aggregation one per 1,000 index entries (at least one), a
// commit writes or deletes each of its documents; a transaction retried is counted each time, as it is billed.

/** One run's counts: the operation (`operationId`, `trigger:<name>`, `task:<name>`) and each collection's share. */
export interface RunCost {
  op: string;
  /** An API request's answer status (its budget is of the calls answered 2xx). */
  status?: number;
  /** Counted after the answer was sent (work the request left running): a line of its own. */
  late?: true;
  reads: number;
  writes: number;
  deletes: number;
  /** Per collection path (`bookings`, `bookings/*\/events`): [reads, writes, deletes]. */
  by: Record<string, [number, number, number]>;
}

const runs = new AsyncLocalStorage<RunCost>();
let logFile: string | undefined;

/** Whether runs are being counted (tests only): the callers skip the scope otherwise. */
export const countingCosts = (): boolean => logFile !== undefined;

const newRun = (op: string): RunCost => ({ op, reads: 0, writes: 0, deletes: 0, by: {} });

/** The collection path of a document path (`bookings/b1/events/e1` → `bookings/*\/events`). */
export const collectionOf = (docPath: string): string =>
  docPath
    .split('/')
    .filter((_, i) => i % 2 === 0)
    .join('/*/');

const relative = (name: string) => name.replace(/^projects\/[^/]+\/databases\/[^/]+\/documents\//, '');

/** Runs whose line was written: what they count later goes to a late line, written a moment after. */
const flushedRuns = new WeakMap<RunCost, RunCost>();

function count(kind: 0 | 1 | 2, collection: string, n = 1, into: RunCost | undefined = runs.getStore()): void {
  if (!into || n <= 0) return;
  let run = into;
  if (flushedRuns.has(into)) {
    let late = flushedRuns.get(into)!;
    if (late === into) {
      late = { ...newRun(into.op), late: true };
      flushedRuns.set(into, late);
      setTimeout(() => flush(late), 2_000).unref();
    }
    run = late;
  }
  if (kind === 0) run.reads += n;
  else if (kind === 1) run.writes += n;
  else run.deletes += n;
  const row = (run.by[collection] ??= [0, 0, 0]);
  row[kind] += n;
}

function flush(run: RunCost): void {
  if (flushedRuns.has(run)) return;
  flushedRuns.set(run, run);
  if (logFile) fs.appendFileSync(logFile, `${JSON.stringify(run)}\n`);
}

/** Runs `work` as one run of `op` (a trigger's or task's delivery), its line appended when it ends. */
export async function withCostCounted<T>(op: string, work: () => Promise<T>): Promise<T> {
  if (!countingCosts()) return work();
  const run = newRun(op);
  try {
    return await runs.run(run, work);
  } finally {
    flush(run);
  }
}

/** Express: counts the rest of the request as one run of `op`, its line appended once the answer is sent. */
export function costCountingMiddleware(op: string) {
  return (_req: unknown, res: { statusCode: number; once(event: 'finish' | 'close', listener: () => void): unknown }, next: () => void): void => {
    const run = newRun(op);
    const done = () => {
      run.status ??= res.statusCode;
      flush(run);
    };
    res.once('finish', done);
    res.once('close', done);
    runs.run(run, next);
  };
}

type Rpc = (this: unknown, method: string, request: Record<string, unknown>, ...rest: unknown[]) => unknown;
type Write = { delete?: string; update?: { name?: string }; transform?: { document?: string } };
type QueryLike = { _queryOptions?: { collectionId?: string; parentPath?: { relativeName?: string } } };
type Getter = (this: QueryLike, ...args: unknown[]) => Promise<{ result: unknown }>;

/** Counts every run's Firestore reads, writes and deletes from now on, one line per run in `file` (tests only). */
export function recordCostsTo(file: string): void {
  if (logFile) return;
  logFile = file;
  const api = firestoreApi() as unknown as {
    Firestore: { prototype: Record<'request' | 'requestStream', Rpc> };
    Query: { prototype: { _get: Getter } };
  };
  // Not exported by this firebase-admin: the class of an aggregation's instance.
  const aggregateQuery = Object.getPrototypeOf(db().collection('cost_log').count()) as { _get: Getter };
  const firestore = api.Firestore.prototype;
  const request = firestore.request;
  // A commit's writes are billed once it succeeds (an aborted or refused one writes nothing).
  firestore.request = function counted(method, req, ...rest) {
    const answer = request.call(this, method, req, ...rest);
    const run = runs.getStore();
    if (method !== 'commit' || !run) return answer;
    return Promise.resolve(answer).then((value) => {
      for (const w of (req.writes ?? []) as Write[]) {
        const name = w.delete ?? w.update?.name ?? w.transform?.document;
        if (name) count(w.delete ? 2 : 1, collectionOf(relative(name)), 1, run);
      }
      return value;
    });
  };
  // A BulkWriter's batches mix several runs' writes: each is counted to the run that asked for it.
  const bulkWriter = (api as unknown as { BulkWriter: { prototype: { _enqueue(ref: { path: string }, type: string, ...rest: unknown[]): unknown } } })
    .BulkWriter.prototype;
  const enqueue = bulkWriter._enqueue;
  bulkWriter._enqueue = function counted(ref, type, ...rest) {
    count(type === 'delete' ? 2 : 1, collectionOf(ref.path));
    return enqueue.call(this, ref, type, ...rest);
  };
  const requestStream = firestore.requestStream;
  firestore.requestStream = function counted(method, ...rest) {
    const req = rest[1] as { documents?: string[] } | undefined;
    if (method === 'batchGetDocuments') for (const name of req?.documents ?? []) count(0, collectionOf(relative(name)));
    return requestStream.call(this, method, ...rest);
  };
  const queryCollection = (q: QueryLike) => {
    const o = q._queryOptions;
    const parent = o?.parentPath?.relativeName ?? '';
    return collectionOf(parent ? `${parent}/${o?.collectionId ?? '?'}` : (o?.collectionId ?? '?'));
  };
  const queryGet = api.Query.prototype._get;
  api.Query.prototype._get = async function counted(...args) {
    const collection = queryCollection(this);
    const answer = await queryGet.apply(this, args);
    count(0, collection, Math.max(1, (answer.result as { size?: number }).size ?? 0));
    return answer;
  };
  const aggregateGet = aggregateQuery._get;
  aggregateQuery._get = async function counted(...args) {
    const inner = (this as { _query?: QueryLike })._query;
    const answer = await aggregateGet.apply(this, args);
    const data = (answer.result as { data(): Record<string, unknown> }).data();
    const entries = typeof data.count === 'number' ? data.count : 0;
    count(0, inner ? queryCollection(inner) : '?', Math.max(1, Math.ceil(entries / 1000)));
    return answer;
  };
}
