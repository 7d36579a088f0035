import { logger } from '../../core/logging/logger';
import { lapsed, type Expiry, type Machine } from '../state-machine/state-machine';
import { enqueue, type TaskQueue } from '../tasks/tasks';

// A deadline: an entity that must leave a status by a time (a ring answered, a payment paid, an order accepted, a
// booking hold confirmed). One declaration gives the four parts every timed entity needs:
// - scheduling: one task per entity (and phase) at its due time, deduplicated by the task id, through platform/kits/tasks
//   (Cloud Tasks keeps the schedule; on the Tasks emulator, which runs every task at once, a local timer keeps it);
// - the task handler: load, check due (a task delivered early waits, or asks the queue to retry), run the expiry move,
//   safe to deliver twice;
// - the lazy check: an entity read (or moved, see `expiry` and platform/kits/state-machine's `transition`) past its due
//   time is expired then, so a late or lost task never leaves it open;
// - the expiry move's table entry (action, who, the expired entity) for `transition`.

export interface DeadlineSpec<T extends { status: S }, S extends string, A extends string, K extends string, P extends Record<K, string> = Record<K, string>> {
  /** The queue of the task function that expires these entities: `documentTaskQueue(name, idField)`, or a wider payload. */
  queue: TaskQueue<P>;
  /** The payload field naming the entity (`callId`, `paymentId`…). */
  idField: K;
  /** The task's payload when it carries more than the id (a ride's hold check: ride and payment); default `{ [idField]: id }`. */
  payloadOf?(entity: T & { id: string }): P;
  /** One task per entity (and phase, for an entity with a deadline per status): a repeated schedule is dropped. */
  taskId(id: string, phase?: string): string;
  /** When the entity is due; null when it has no deadline now (settled, or a status without one). */
  dueAt(entity: T): number | null;
  /** The machine move that expires it; absent when the module's own expiry does more than one move (rides). */
  expiry?: { machine: Machine<S, A, string>; action: A; by: string; apply(entity: T, to: S, at: number): T };
  /** A task delivered early waits in its worker this long at most before asking the queue to retry (default 0). */
  maxWaitMs?: number;
  /** A deadline re-armed in rounds while nothing happens (a search finding nobody): the wait before the next round. */
  rounds?: Rounds;
  /** What the entity is called in logs and errors ("payment P12… is not due yet"). */
  entity: string;
}

/** Rounds of a re-armed deadline: the first wait, doubling with each round up to the cap (seconds). */
export interface Rounds {
  firstSec: number;
  maxSec: number;
}

/** The wait after round `attempt` (0 for the first): `firstSec` doubling each round, never above `maxSec`. */
export function roundDelayMs(rounds: Rounds, attempt: number): number {
  const doublings = Math.min(Math.max(0, Math.floor(attempt)), 30);
  return Math.min(rounds.maxSec, rounds.firstSec * 2 ** doublings) * 1000;
}

/** The phase of a round's task (one task per entity and round: a task of an older round finds nothing to do). */
export const roundPhase = (attempt: number | undefined): string => `r${attempt ?? 0}`;

/** What a service asks for its deadlines (a fake in tests). `payload`: the task's, when not `{ [idField]: id }`. */
export interface DeadlineScheduler<P = never> {
  schedule(id: string, delaySec: number, phase?: string, payload?: P): Promise<void>;
}

export interface DeadlineTaskDeps<T> {
  /** The entity as stored (undefined: gone). */
  load(id: string): Promise<T | undefined>;
  /** The expiry move, tolerant: an entity settled meanwhile is left as it is. */
  expire(id: string): Promise<unknown>;
  /**
   * The due time the task was armed for (carried in its payload): when the entity's deadline has moved later since
   * (a hold became a wait for an answer), the task armed for the new time does the work and this one settles.
   */
  armedFor?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** 'expired': the expiry ran; 'settled': nothing was due any more (answered, paid, gone). */
export type DeadlineOutcome = 'expired' | 'settled';

const RECHECK_MS = 500;

export interface Deadline<T extends { status: S }, S extends string, A extends string, K extends string, P extends Record<K, string> = Record<K, string>> {
  readonly spec: DeadlineSpec<T, S, A, K, P>;
  dueAt(entity: T): number | null;
  /** The wait before the round after `attempt` (requires `rounds`). */
  nextRound(attempt: number): number;
  /** Whether the entity's deadline has passed at `now`. */
  isDue(entity: T, now: number): boolean;
  /** The lazy check on read: the entity as it stands at `now` (expired by the table's move when due). Pure. */
  settle(entity: T, now: number): { entity: T; expired: boolean };
  /** The deadline as `transition` checks it before a move (requires `expiry`). */
  expiry(): Expiry<T, S, A>;
  /** The scheduler of the real queue (services take it as a dependency). */
  readonly scheduler: DeadlineScheduler<P>;
  /** Asks `scheduler` for the entity's task at its due time. Never throws: a task not queued is covered by the lazy check. */
  arm(scheduler: DeadlineScheduler<P>, entity: T & { id: string }, now: number, phase?: string): Promise<void>;
  /** The task's work for the entity `id`. */
  run(id: string, deps: DeadlineTaskDeps<T>): Promise<DeadlineOutcome>;
}

export function defineDeadline<T extends { status: S }, S extends string, A extends string, K extends string, P extends Record<K, string> = Record<K, string>>(
  spec: DeadlineSpec<T, S, A, K, P>,
): Deadline<T, S, A, K, P> {
  const expiryOf = () => {
    if (!spec.expiry) throw new Error(`deadline ${spec.queue.name}: no expiry move declared`);
    return spec.expiry;
  };
  const deadline: Deadline<T, S, A, K, P> = {
    spec,
    dueAt: (entity) => spec.dueAt(entity),
    nextRound(attempt) {
      if (!spec.rounds) throw new Error(`deadline ${spec.queue.name}: no rounds declared`);
      return roundDelayMs(spec.rounds, attempt);
    },
    isDue(entity, now) {
      const due = spec.dueAt(entity);
      return due !== null && now >= due;
    },
    settle(entity, now) {
      const lapse = lapsed(expiryOf().machine, deadline.expiry(), entity, now);
      return lapse ? { entity: lapse.entity, expired: true } : { entity, expired: false };
    },
    expiry() {
      const { action, by, apply } = expiryOf();
      return { dueAt: spec.dueAt, action, by, apply };
    },
    scheduler: {
      schedule: (id, delaySec, phase, payload) =>
        enqueueDelayed(spec.queue, payload ?? ({ [spec.idField]: id } as P), { id: spec.taskId(id, phase), delaySec }),
    },
    async arm(scheduler, entity, now, phase) {
      const due = spec.dueAt(entity);
      if (due === null) return;
      const delaySec = Math.max(1, Math.ceil((due - now) / 1000));
      await scheduler.schedule(entity.id, delaySec, phase, spec.payloadOf?.(entity)).catch((err: unknown) => {
        logger.warn(`${spec.entity} deadline not scheduled: it expires when next read`, {
          queue: spec.queue.name,
          id: entity.id,
          error: (err as Error).message,
        });
      });
    },
    run(id, deps) {
      const dueOf = async (key: string) => {
        const entity = await deps.load(key);
        return entity ? (spec.dueAt(entity) ?? undefined) : undefined;
      };
      return runDeadlineTask(id, {
        dueOf,
        expire: deps.expire,
        armedFor: deps.armedFor,
        now: deps.now,
        sleep: deps.sleep,
        maxWaitMs: spec.maxWaitMs,
        name: spec.entity,
      });
    },
  };
  return deadline;
}

/**
 * Enqueues a timed task. Cloud Tasks keeps the schedule in production. The Tasks emulator runs a task at once whatever
 * its schedule: each early run would be refused ("not due") and retried, starting a Functions emulator worker per
 * task. Locally the schedule is kept by a timer instead (the payload checked now); a timer lost with its process is
 * covered by the lazy check every deadline has.
 */
export async function enqueueDelayed<P>(queue: TaskQueue<P>, payload: P, options: { id: string; delaySec: number }): Promise<void> {
  if (!process.env.CLOUD_TASKS_EMULATOR_HOST) return enqueue(queue, payload, options);
  const data = queue.payload.parse(payload);
  const timer = setTimeout(() => {
    enqueue(queue, data, { id: options.id }).catch((err: unknown) =>
      logger.warn('deferred enqueue failed', { queue: queue.name, id: options.id, error: String(err) }),
    );
  }, options.delaySec * 1000);
  timer.unref();
}

/**
 * A deadline task's loop. Delivered early (the Tasks emulator ignores schedule times; a retry may come early too), it
 * waits for the due time within `maxWaitMs`, looking again every half second so an entity settled meanwhile frees the
 * worker at once; further off, it throws and the queue retries later. Never expires before the due time; a task armed for a due time that has since moved later (`armedFor`) settles.
 */
export async function runDeadlineTask(
  id: string,
  deps: {
    dueOf(id: string): Promise<number | undefined>;
    expire(id: string): Promise<unknown>;
    armedFor?: number;
    now?: () => number;
    sleep?: (ms: number) => Promise<void>;
    maxWaitMs?: number;
    name?: string;
  },
): Promise<DeadlineOutcome> {
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = deps.now ?? Date.now;
  const maxWaitMs = deps.maxWaitMs ?? 0;
  const startedAt = now();
  for (;;) {
    const due = await deps.dueOf(id);
    if (due === undefined) return 'settled';
    if (deps.armedFor !== undefined && Number.isFinite(deps.armedFor) && due > deps.armedFor) return 'settled';
    const wait = due - now();
    if (wait <= 0) break;
    if (now() - startedAt + wait > maxWaitMs && wait > RECHECK_MS)
      throw new Error(`${deps.name ?? 'entity'} ${id} is not due yet (in ${Math.round(wait / 1000)} s): retry later`);
    await sleep(Math.min(wait, RECHECK_MS));
  }
  await deps.expire(id);
  return 'expired';
}
