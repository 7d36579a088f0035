import {
  assignmentOf,
  definePickupWindow,
  formerAfterLeaving,
  giveUpJob,
  isFormerCourier,
  JobGiveUpBodySchema,
  ReleaseNotDue,
  releaseUnlessNotDue,
  runPickupTimeout,
} from '../../../src/modules/driver/driver.release';
import { NotFoundError } from '../../../src/platform/core/errors/app-error';
import { documentTaskQueue } from '../../../src/platform/kits/tasks/tasks';

// The courier release both job kinds share (driver module's face): who left a job, the give-up's retry answer, the
// pickup window's deadline and task.
type Job = {
  id: string;
  status: 'ASSIGNED' | 'PICKED' | 'OPEN';
  driverId: string | null;
  formerDriverIds?: string[];
  assignedAt?: number | null;
  pickupBy?: number | null;
};
const job = (over: Partial<Job> = {}): Job => ({ id: 'j1', status: 'ASSIGNED', driverId: 'c1', assignedAt: 1_000, pickupBy: 5_000, ...over });

describe('who left a job', () => {
  it('remembers the leaving courier last, once, keeping at most `max`', () => {
    expect(formerAfterLeaving(job({ formerDriverIds: ['c0'] }), 20)).toEqual(['c0', 'c1']);
    expect(formerAfterLeaving(job({ formerDriverIds: ['c1', 'c0'] }), 20)).toEqual(['c0', 'c1']);
    expect(formerAfterLeaving(job({ formerDriverIds: ['a', 'b', 'c'] }), 2)).toEqual(['c', 'c1']);
    expect(formerAfterLeaving(job({ driverId: null, formerDriverIds: ['a'] }), 20)).toEqual(['a']);
  });

  it('a former courier is one who left and is not its courier now', () => {
    expect(isFormerCourier(job({ driverId: null, formerDriverIds: ['c1'] }), 'c1')).toBe(true);
    expect(isFormerCourier(job({ formerDriverIds: ['c1'] }), 'c1')).toBe(false);
    expect(isFormerCourier(job({ driverId: null }), 'c1')).toBe(false);
    expect(isFormerCourier(undefined, 'c1')).toBe(false);
    expect(assignmentOf({ assignedAt: 42 })).toBe('a42');
    expect(assignmentOf({})).toBe('a0');
  });
});

describe('the give-up', () => {
  const code = 'ORDER_COURIER_RELEASED' as const;
  it('a courier who left already is 409 with the module’s code, without a move', async () => {
    const leave = jest.fn(async () => 'moved');
    const refused = giveUpJob({ userId: 'c1', load: async () => job({ driverId: null, formerDriverIds: ['c1'] }), leave, code, noun: 'order' });
    await expect(refused).rejects.toMatchObject({ statusCode: 409, code });
    expect(leave).not.toHaveBeenCalled();
  });

  it('a double tap (the move’s 404 once the first one moved) is that 409; a stranger keeps the 404', async () => {
    let stored = job();
    const leave = async () => {
      stored = job({ driverId: null, formerDriverIds: ['c1'] });
      throw new NotFoundError('no such order');
    };
    await expect(giveUpJob({ userId: 'c1', load: async () => stored, leave, code: 'DELIVERY_DRIVER_RELEASED', noun: 'parcel' })).rejects.toMatchObject({
      statusCode: 409,
      code: 'DELIVERY_DRIVER_RELEASED',
    });
    await expect(giveUpJob({ userId: 'other', load: async () => job(), leave, code, noun: 'order' })).rejects.toMatchObject({ statusCode: 404 });
    await expect(giveUpJob({ userId: 'c1', load: async () => job(), leave: async () => 'moved', code, noun: 'order' })).resolves.toBe('moved');
  });

  it('the timer’s release is nothing when not due or gone, and throws anything else', async () => {
    await expect(releaseUnlessNotDue(Promise.reject(new ReleaseNotDue()))).resolves.toBeUndefined();
    await expect(releaseUnlessNotDue(Promise.reject(new NotFoundError('gone')))).resolves.toBeUndefined();
    await expect(releaseUnlessNotDue(Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(releaseUnlessNotDue(Promise.resolve('released'))).resolves.toBe('released');
  });

  it('one body for both routes: an optional reason of 1–200 characters', () => {
    expect(JobGiveUpBodySchema.parse({ reason: '  Xe hỏng ' })).toEqual({ reason: 'Xe hỏng' });
    expect(JobGiveUpBodySchema.safeParse({ reason: 'x'.repeat(201) }).success).toBe(false);
    expect(JobGiveUpBodySchema.parse({})).toEqual({});
  });
});

describe('the pickup window', () => {
  const window = definePickupWindow<Job, Job['status'], 'giveUp', 'jobId'>({
    entity: 'job pickup',
    queue: documentTaskQueue('testPickup', 'jobId') as never,
    idField: 'jobId',
    status: 'ASSIGNED',
  });
  it('is due at `pickupBy` while the job has its courier in the status; one task per assignment', () => {
    expect(window.dueAt(job())).toBe(5_000);
    expect([window.dueAt(job({ status: 'PICKED' })), window.dueAt(job({ driverId: null })), window.dueAt(job({ pickupBy: null }))]).toEqual([null, null, null]);
    expect(window.spec.payloadOf!(job())).toEqual({ jobId: 'j1', assignment: 'a1000' });
    expect([window.spec.taskId('j1', 'a1000'), window.spec.taskId('j1')]).toEqual(['pickup-j1-a1000', 'pickup-j1-a']);
  });

  it('its task: another assignment’s does nothing, a duplicate after the release finds nothing due', async () => {
    let stored: Job | undefined = job();
    const release = jest.fn(async () => {
      stored = job({ driverId: null, formerDriverIds: ['c1'], pickupBy: null, assignedAt: null });
    });
    const deps = { load: async () => stored, release, now: () => 6_000 };
    expect(await runPickupTimeout(window, 'j1', 'a999', deps)).toBe('settled');
    expect(release).not.toHaveBeenCalled();
    expect(await runPickupTimeout(window, 'j1', 'a1000', deps)).toBe('expired');
    expect(await runPickupTimeout(window, 'j1', 'a1000', deps)).toBe('settled');
    expect(await runPickupTimeout(window, 'j1', undefined, deps)).toBe('settled');
    expect(release).toHaveBeenCalledTimes(1);
    stored = undefined;
    expect(await runPickupTimeout(window, 'j1', undefined, deps)).toBe('settled');
  });

  it('never before its time: a task come early asks the queue to retry', async () => {
    const deps = { load: async () => job(), release: jest.fn(), now: () => 1_000 };
    await expect(runPickupTimeout(window, 'j1', 'a1000', deps)).rejects.toThrow(/not due yet/);
    expect(deps.release).not.toHaveBeenCalled();
  });
});
