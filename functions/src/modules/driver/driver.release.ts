import { z } from 'zod';
import { ConflictError, NotFoundError } from '../../platform/core/errors/app-error';
import type { ErrorCode } from '../../platform/core/errors/codes';
import { defineDeadline, type Deadline, type DeadlineOutcome, type DeadlineTaskDeps } from '../../platform/kits/deadlines/deadlines';
import type { TaskQueue } from '../../platform/kits/tasks/tasks';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';

// A courier leaving a job before pickup, the same for an order and a parcel: their own give-up, or the pickup
// window's release (the same move by SYSTEM). The job remembers who left it (never offered it again, a retry 409),
// one pickup task per assignment, and a task that finds nothing due does nothing. The modules keep their move.

/** What a job keeps of its courier for the release. */
export interface ReleasableJob {
  id: string;
  driverId: string | null;
  formerDriverIds?: string[];
  assignedAt?: number | null;
  pickupBy?: number | null;
}

/** The pickup timer of an assignment that is not due (a later assignment, a task come early): thrown inside the move. */
export class ReleaseNotDue extends Error {}

/** The body of both give-up routes (orders and parcels). */
export const JobGiveUpBodySchema = z
  .object({ reason: z.string().trim().min(1).max(200).optional().describe('Why (shown in the history to administrators, and to the store of an order)') })
  .meta({ id: 'JobGiveUpRequest' });

/** What operators see of a courier's give-ups (orders and parcels). */
export const JobGiveUpsSchema = z
  .object({
    courierId: z.string(),
    giveUps: z.number().int().describe('Jobs (orders and parcels) the courier gave up before pickup, ever (releases by the pickup timer not counted)'),
    cooldownUntil: IsoTimeSchema.nullable().describe('Until when the courier is offered no job after their last give-up (null: never cooled down)'),
  })
  .meta({ id: 'CourierGiveUps' });

/** Which assignment of a job this is (the phase of its pickup task). */
export const assignmentOf = (job: Pick<ReleasableJob, 'assignedAt'>): string => `a${job.assignedAt ?? 0}`;

/** The courier left this job (gave it up or was released) and is not its courier now. */
export const isFormerCourier = (job: ReleasableJob | undefined, userId: string): boolean =>
  !!job && job.driverId !== userId && (job.formerDriverIds ?? []).includes(userId);

/** Who left the job, the leaving courier last (once), the oldest forgotten past `max`. */
export const formerAfterLeaving = (job: ReleasableJob, max: number): string[] =>
  [...(job.formerDriverIds ?? []).filter((d) => d !== job.driverId), ...(job.driverId ? [job.driverId] : [])].slice(-max);

/**
 * The courier's give-up: a courier who left it already is 409 `code` (no second move); the move's 404 to them (a
 * double tap: the first request made this one a stranger's) is that 409 too. Anyone else keeps the move's answer.
 */
export async function giveUpJob<R>(input: {
  userId: string;
  load: () => Promise<ReleasableJob | undefined>;
  leave: () => Promise<R>;
  code: ErrorCode;
  noun: string;
}): Promise<R> {
  const alreadyLeft = () => new ConflictError(`You are no longer this ${input.noun}’s courier (you gave it up, or it was released)`).withCode(input.code);
  if (isFormerCourier(await input.load(), input.userId)) throw alreadyLeft();
  return input.leave().catch(async (err: unknown) => {
    if (err instanceof NotFoundError && isFormerCourier(await input.load(), input.userId)) throw alreadyLeft();
    throw err;
  });
}

/** The timer's release, tolerant: nothing due (ReleaseNotDue) or no such job is `undefined`. */
export const releaseUnlessNotDue = <R>(release: Promise<R>): Promise<R | undefined> =>
  release.catch((err: unknown) => {
    if (err instanceof ReleaseNotDue || err instanceof NotFoundError) return undefined;
    throw err;
  });

type PickupPayload<K extends string> = Record<K, string> & { assignment?: string };

/**
 * The pickup window of a job in `status` with a courier: due at `pickupBy`, one task per assignment (`assignment`
 * in its payload, the phase of its task id).
 */
export function definePickupWindow<T extends ReleasableJob & { status: S }, S extends string, A extends string, K extends string>(spec: {
  entity: string;
  queue: TaskQueue<PickupPayload<K>>;
  idField: K;
  status: S;
}): Deadline<T, S, A, K, PickupPayload<K>> {
  return defineDeadline<T, S, A, K, PickupPayload<K>>({
    entity: spec.entity,
    queue: spec.queue,
    idField: spec.idField,
    payloadOf: (job) => ({ [spec.idField]: job.id, assignment: assignmentOf(job) }) as PickupPayload<K>,
    taskId: (id, phase) => `pickup-${id}-${phase ?? 'a'}`,
    dueAt: (job) => (job.status === spec.status && job.driverId !== null ? (job.pickupBy ?? null) : null),
  });
}

/** The pickup task: another assignment's task does nothing; else waits for the due time, then releases. */
export async function runPickupTimeout<T extends ReleasableJob & { status: string }>(
  deadline: { run(id: string, deps: DeadlineTaskDeps<T>): Promise<DeadlineOutcome> },
  id: string,
  assignment: string | undefined,
  deps: { load: (id: string) => Promise<T | undefined>; release: (id: string) => Promise<unknown>; now: () => number },
): Promise<DeadlineOutcome> {
  const found = await deps.load(id);
  if (!found || (assignment !== undefined && assignmentOf(found) !== assignment)) return 'settled';
  return deadline.run(id, { load: deps.load, expire: deps.release, now: deps.now });
}
