import { implausibleJump, JUMP_SLACK_M } from '../../../src/modules/driver/driver.dispatch';
import { deadlineOf, isOverdue, rideMachine } from '../../../src/modules/rides/rides.model';

// The trip's timers and the plausibility of a driver's move, as pure rules (issue 29, items 4 and 5).

const limits = { arrivedSec: 1_200, tripFactor: 3, tripMinSec: 1_800 };
const ride = (status: 'CONFIRMED' | 'ARRIVED' | 'IN_PROGRESS' | 'COMPLETED', durationSec = 600) => ({
  status,
  confirmedAt: 0,
  arrivedAt: 1_000,
  pickedUpAt: 2_000,
  quote: { fare: 20_000, distanceM: 4_000, durationSec, surgeBp: 10_000 },
});

describe('ride deadlines', () => {
  it('each active status has one: 30 minutes to arrive, the wait at the pickup, a multiple of the quoted duration with a floor', () => {
    expect(deadlineOf(ride('CONFIRMED'), limits)).toBe(30 * 60_000);
    expect(deadlineOf(ride('ARRIVED'), limits)).toBe(1_000 + 1_200_000);
    expect(deadlineOf(ride('IN_PROGRESS', 600), limits)).toBe(2_000 + 1_800_000); // 3 × 10 min is under the floor
    expect(deadlineOf(ride('IN_PROGRESS', 1_200), limits)).toBe(2_000 + 3_600_000);
    expect(deadlineOf(ride('COMPLETED'), limits)).toBeNull();
    expect(isOverdue(ride('IN_PROGRESS', 1_200), 2_000 + 3_600_000 - 1, limits)).toBe(false);
    expect(isOverdue(ride('IN_PROGRESS', 1_200), 2_000 + 3_600_000, limits)).toBe(true);
  });

  it('a started trip ends by its driver, an administrator, or the system when it times out; the rider cannot cancel it', () => {
    expect(rideMachine.can('complete', 'IN_PROGRESS', ['admin'])).toBe(true);
    expect(rideMachine.can('abort', 'IN_PROGRESS', ['admin'])).toBe(true);
    // A started trip whose timer ran out is completed by the system at the distance driven, never EXPIRED free.
    expect(rideMachine.can('expire', 'IN_PROGRESS', ['system'])).toBe(false);
    expect(rideMachine.can('complete', 'IN_PROGRESS', ['system'])).toBe(true);
    expect(rideMachine.can('noShow', 'ARRIVED', ['driver'])).toBe(true);
    expect(rideMachine.can('noShow', 'CONFIRMED', ['driver'])).toBe(false);
    expect(rideMachine.can('cancel', 'IN_PROGRESS', ['rider'])).toBe(false);
    expect(rideMachine.can('abort', 'IN_PROGRESS', ['rider', 'driver'])).toBe(false);
  });
});

describe('position jumps', () => {
  const from = { lat: 10.7769, lng: 106.7009, locatedAt: 0 };
  const north = (m: number) => ({ lat: from.lat + m / 111_320, lng: from.lng });
  it('refuses what the speed limit and the GPS slack cannot explain, and accepts the rest', () => {
    expect(implausibleJump(from, north(5_000), 1_000, 200)).toMatchObject({ distanceM: expect.any(Number), seconds: 1 });
    expect(implausibleJump(from, north(JUMP_SLACK_M + 50), 1_000, 200)).toBeUndefined(); // 55 m/s + slack
    expect(implausibleJump(from, north(5_000), 120_000, 200)).toBeUndefined(); // 2 minutes at up to 200 km/h
    expect(implausibleJump({ lat: null, lng: null, locatedAt: null }, north(5_000), 1_000, 200)).toBeUndefined();
  });
});
