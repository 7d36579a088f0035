// The schedule of a delayed task: Cloud Tasks keeps it in production (scheduleDelaySeconds); on the emulator the
// deadlines kit's scheduler enqueues the task when due with a local timer (the Tasks emulator runs every task at once).
const enqueued: Array<{ name: string; data: unknown; options: Record<string, unknown>; at: number }> = [];
jest.mock('firebase-admin/functions', () => ({
  getFunctions: () => ({
    taskQueue: (name: string) => ({
      enqueue: async (data: unknown, options: Record<string, unknown>) => {
        enqueued.push({ name, data, options, at: Date.now() });
      },
    }),
  }),
}));
jest.mock('../../src/platform/core/firebase/firebase', () => ({ firebaseApp: () => ({}) }));

import { defineDeadline } from '../../src/platform/kits/deadlines/deadlines';
import { defineTaskQueue, documentTaskQueue, enqueue } from '../../src/platform/kits/tasks/tasks';
import * as z from 'zod/mini';

const queue = documentTaskQueue('rideExpiry', 'rideId');
const timer = defineDeadline({
  entity: 'ride',
  queue,
  idField: 'rideId',
  taskId: (id) => `ride-expiry-${id}`,
  dueAt: (r: { status: string; due: number }) => r.due,
});
const pairQueue = defineTaskQueue('rideHoldCheck', z.object({ rideId: z.string(), paymentId: z.string() }));
const pair = defineDeadline({
  entity: 'ride hold',
  queue: pairQueue,
  idField: 'paymentId',
  payloadOf: (h: { id: string; rideId: string; status: string; due: number }) => ({ rideId: h.rideId, paymentId: h.id }),
  taskId: (id) => `ride-hold-${id}`,
  dueAt: (h) => h.due,
});

describe('enqueue keeps the schedule', () => {
  const emulatorHost = process.env.CLOUD_TASKS_EMULATOR_HOST;
  beforeEach(() => {
    enqueued.length = 0;
  });
  afterAll(() => {
    if (emulatorHost === undefined) delete process.env.CLOUD_TASKS_EMULATOR_HOST;
    else process.env.CLOUD_TASKS_EMULATOR_HOST = emulatorHost;
  });

  it('in production, hands the delay to Cloud Tasks with the dedup id', async () => {
    delete process.env.CLOUD_TASKS_EMULATOR_HOST;
    await enqueue(queue, { rideId: 'r1' }, { id: 'ride-expiry-r1', delaySec: 90 });
    expect(enqueued).toHaveLength(1);
    expect(enqueued[0].name).toMatch(/\/functions\/rideExpiry$/);
    expect(enqueued[0].options).toMatchObject({ id: 'ride-expiry-r1', scheduleDelaySeconds: 90 });
  });

  it('without a delay, runs at once (no schedule option)', async () => {
    delete process.env.CLOUD_TASKS_EMULATOR_HOST;
    await enqueue(queue, { rideId: 'r2' });
    expect(enqueued[0].options).not.toHaveProperty('scheduleDelaySeconds');
  });

  it('a deadline in production hands its delay to Cloud Tasks with the dedup id', async () => {
    delete process.env.CLOUD_TASKS_EMULATOR_HOST;
    await timer.scheduler.schedule('r4', 90);
    expect(enqueued).toHaveLength(1);
    expect(enqueued[0]).toMatchObject({ data: { rideId: 'r4' }, options: { id: 'ride-expiry-r4', scheduleDelaySeconds: 90 } });
  });

  it('on the emulator, a deadline enqueues when due instead', async () => {
    process.env.CLOUD_TASKS_EMULATOR_HOST = '127.0.0.1:9499';
    jest.useFakeTimers();
    try {
      await timer.scheduler.schedule('r3', 30);
      expect(enqueued).toHaveLength(0);
      await jest.advanceTimersByTimeAsync(29_000);
      expect(enqueued).toHaveLength(0);
      await jest.advanceTimersByTimeAsync(1_000);
      expect(enqueued).toHaveLength(1);
      expect(enqueued[0]).toMatchObject({ data: { rideId: 'r3' }, options: { id: 'ride-expiry-r3' } });
      expect(enqueued[0].options).not.toHaveProperty('scheduleDelaySeconds');
    } finally {
      jest.useRealTimers();
    }
  });

  it('on the emulator, a deadline refuses a bad payload at once, not when its timer fires', async () => {
    process.env.CLOUD_TASKS_EMULATOR_HOST = '127.0.0.1:9499';
    await expect(timer.scheduler.schedule('', 30)).rejects.toThrow();
  });

  it('a deadline with payloadOf: arm enqueues the whole payload under the task id of its entity', async () => {
    delete process.env.CLOUD_TASKS_EMULATOR_HOST;
    await pair.arm(pair.scheduler, { id: 'P7', rideId: 'R7', status: 'HELD', due: 61_000 }, 1_000);
    expect(enqueued).toHaveLength(1);
    expect(enqueued[0]).toMatchObject({
      name: expect.stringMatching(/\/functions\/rideHoldCheck$/),
      data: { rideId: 'R7', paymentId: 'P7' },
      options: { id: 'ride-hold-P7', scheduleDelaySeconds: 60 },
    });
  });

  it('refuses a payload its queue does not accept, before any hand-over', async () => {
    delete process.env.CLOUD_TASKS_EMULATOR_HOST;
    await expect(enqueue(queue, { rideId: '' })).rejects.toThrow();
    expect(enqueued).toHaveLength(0);
  });
});
