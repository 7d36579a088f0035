// The ride's timers on platform/kits/deadlines: the task ids and payloads of before (a repeated schedule is dropped
// by Cloud Tasks only if the id is the same), the due times from the configuration.
const mockEnqueued: unknown[][] = [];
jest.mock('../../../src/platform/kits/tasks/tasks', () => ({
  ...(jest.requireActual('../../../src/platform/kits/tasks/tasks') as object),
  enqueue: async (...args: unknown[]) => void mockEnqueued.push(args),
}));
const { rideDeadlines } = require('../../../src/modules/rides/rides.deadlines') as typeof import('../../../src/modules/rides/rides.deadlines');
import type { RideRecord } from '../../../src/modules/rides/rides.model';

const deadlines = rideDeadlines({ timeouts: { arrivedSec: 1_200, tripFactor: 3, tripMinSec: 1_800 }, holdExpirySec: 900 });
const T = 1_800_000_000_000;
const ride = (over: Partial<RideRecord>) =>
  ({ id: 'R1', status: 'CONFIRMED', confirmedAt: T, arrivedAt: null, pickedUpAt: null, quote: { durationSec: 900 }, ...over }) as RideRecord;

describe('rides: the timers on the deadlines kit', () => {
  beforeEach(() => (mockEnqueued.length = 0));

  it('one expiry task per ride and status: CONFIRMED keeps the plain id, later statuses add theirs', async () => {
    await deadlines.expiry.arm(deadlines.scheduler, ride({}), T, 'CONFIRMED');
    await deadlines.expiry.arm(deadlines.scheduler, ride({ status: 'ARRIVED', arrivedAt: T }), T, 'ARRIVED');
    await deadlines.expiry.arm(deadlines.scheduler, ride({ status: 'IN_PROGRESS', pickedUpAt: T }), T, 'IN_PROGRESS');
    expect(mockEnqueued.map(([, payload, options]) => [payload, options])).toEqual([
      [{ rideId: 'R1' }, { id: 'ride-expiry-R1', delaySec: 1_800 }],
      [{ rideId: 'R1' }, { id: 'ride-expiry-R1-arrived', delaySec: 1_200 }],
      [{ rideId: 'R1' }, { id: 'ride-expiry-R1-in_progress', delaySec: 2_700 }],
    ]);
  });

  it('an ended ride has no deadline: nothing is queued, and it is never due', async () => {
    await deadlines.expiry.arm(deadlines.scheduler, ride({ status: 'COMPLETED' }), T, 'COMPLETED');
    expect(mockEnqueued).toEqual([]);
    expect(deadlines.expiry.isDue(ride({ status: 'COMPLETED' }), T + 86_400_000)).toBe(false);
    expect([deadlines.expiry.isDue(ride({}), T + 1_799_999), deadlines.expiry.isDue(ride({}), T + 1_800_000)]).toEqual([false, true]);
  });

  it('the hold check: one task per hold, its payload the ride and the payment, due RIDE_HOLD_EXPIRY_SEC after it', async () => {
    await deadlines.hold.arm({ schedule: deadlines.scheduler.holdCheck }, { id: 'P1', rideId: 'R1', status: 'HELD', createdAt: T }, T);
    expect(mockEnqueued).toEqual([[deadlines.hold.spec.queue, { rideId: 'R1', paymentId: 'P1' }, { id: 'ride-hold-P1', delaySec: 900 }]]);
  });

  it('the hold check task waits for the due time, then checks the hold once', async () => {
    const checked: string[] = [];
    const load = async () => ({ id: 'P1', rideId: 'R1', status: 'HELD' as const, createdAt: T });
    const early = deadlines.hold.run('P1', { load, expire: async (id) => void checked.push(id), now: () => T + 60_000 });
    await expect(early).rejects.toThrow(/not due yet/);
    expect(checked).toEqual([]);
    expect(await deadlines.hold.run('P1', { load, expire: async (id) => void checked.push(id), now: () => T + 900_000 })).toBe('expired');
    expect(checked).toEqual(['P1']);
  });
});
