// The schedule of a delayed task: Cloud Tasks keeps it in production (scheduleDelaySeconds); on the emulator a
// local timer enqueues the task when due (the Tasks emulator runs every task at once).
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

import { documentTaskQueue, enqueue } from '../../src/platform/kits/tasks/tasks';

const queue = documentTaskQueue('rideExpiry', 'rideId');

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

  it('on the emulator, enqueues when due instead', async () => {
    process.env.CLOUD_TASKS_EMULATOR_HOST = '127.0.0.1:9499';
    jest.useFakeTimers();
    try {
      await enqueue(queue, { rideId: 'r3' }, { id: 'ride-expiry-r3', delaySec: 30 });
      expect(enqueued).toHaveLength(0);
      await jest.advanceTimersByTimeAsync(30_000);
      expect(enqueued).toHaveLength(1);
      expect(enqueued[0].options).not.toHaveProperty('scheduleDelaySeconds');
    } finally {
      jest.useRealTimers();
    }
  });

  it('refuses a payload its queue does not accept, before any hand-over', async () => {
    delete process.env.CLOUD_TASKS_EMULATOR_HOST;
    await expect(enqueue(queue, { rideId: '' })).rejects.toThrow();
    expect(enqueued).toHaveLength(0);
  });
});
