import { dispatchPool } from '../../../src/modules/driver';
import { JUMP_SLACK_M, tripStep } from '../../../src/modules/driver/driver.dispatch';
import { fareCapOf, fareOf, isFreshPosition, signQuote, timedOutFare, type RideRecord } from '../../../src/modules/rides/rides.model';
import { ridesRepo } from '../../../src/modules/rides/rides.repo';
import { createRidesService, quoteKeyOf } from '../../../src/modules/rides/rides.service';

// The money rules of a ride's end, pure or with the repository stubbed (issue 29 security review: items 1, 2, 3, 8).

const T = 1_800_000_000_000;
const key = quoteKeyOf('unit-secret');
const pickup = { lat: 10.7769, lng: 106.7009 };
const dropoff = { lat: 10.8039, lng: 106.7009 };
const terms = {
  riderId: 'U1',
  rideClass: 'MOTORBIKE' as const,
  pickup,
  dropoff,
  fare: 25_000,
  distanceM: 4_000,
  durationSec: 900,
  surgeBp: 10_000,
  expiresAt: T + 60_000,
};

function service(payments: Record<string, jest.Mock>) {
  return createRidesService({
    router: {} as never,
    payments: payments as never,
    scheduler: { schedule: async () => undefined, holdCheck: async () => undefined },
    quoteKey: key,
    searchRadiusM: 3_000,
    commissionBp: 2_000,
    cancelFee: 10_000,
    cancelGraceSec: 120,
    cancelWaitSec: 120,
    timeouts: { arrivedSec: 1_200, tripFactor: 3, tripMinSec: 1_800 },
    geofence: { arriveRadiusM: 200, completeRadiusM: 500, completeMinDrivenBp: 5_000, positionFreshSec: 120 },
    holdExpirySec: 900,
    disputeWindowDays: 7,
    now: () => T,
  });
}

const ride = (over: Partial<RideRecord> = {}): RideRecord => ({
  id: 'R1',
  riderId: 'U1',
  driverId: 'D1',
  participants: ['U1', 'D1'],
  status: 'COMPLETED',
  rideClass: 'MOTORBIKE',
  pickup,
  dropoff,
  pickupCell: null,
  quote: { fare: 25_000, distanceM: 4_000, durationSec: 900, surgeBp: 10_000 },
  paymentMethod: 'WALLET',
  holdPaymentId: 'P1',
  paymentId: null,
  fare: 24_000,
  drivenM: 3_900,
  cancellationFee: 0,
  driver: null,
  etaToPickupSec: null,
  excludedDriverIds: [],
  reassignments: 0,
  note: null,
  cancelledBy: null,
  cancelReason: null,
  rating: null,
  createdAt: T - 3_600_000,
  confirmedAt: T - 3_500_000,
  arrivedAt: T - 3_400_000,
  pickedUpAt: T - 3_300_000,
  completedAt: T,
  endedAt: T,
  updatedAt: T,
  ...over,
});

afterEach(() => jest.restoreAllMocks());

describe('a started trip whose timer ran out (item 1)', () => {
  it('is priced at the distance driven and at most the quoted duration, never above the cap; nothing driven is the minimum fare', () => {
    const r = { rideClass: 'MOTORBIKE' as const, quote: { fare: 25_000, distanceM: 4_000, durationSec: 900, surgeBp: 10_000 }, pickedUpAt: 0 };
    expect(timedOutFare(r, 2_000, 3_600_000)).toEqual({ fare: fareOf('MOTORBIKE', 2_000, 900), drivenM: 2_000 });
    expect(timedOutFare(r, 0, 3_600_000).fare).toBe(fareOf('MOTORBIKE', 0, 900));
    expect(timedOutFare(r, 50_000, 3_600_000)).toEqual({ fare: fareCapOf(25_000), drivenM: 50_000 });
    expect(timedOutFare(r, 2_000, 300_000).fare).toBe(fareOf('MOTORBIKE', 2_000, 300));
  });
});

describe('fares in integer VND', () => {
  it('sum the tariff exactly, surge it, round up to 1,000 once; the cap is the quote × 1.2 rounded up', () => {
    // 10,000 + 4,300 × 2.345 + 300 × 61/60 = 20,388.5 → 21,000; × 1.25 = 25,485.6… → 26,000
    expect(fareOf('MOTORBIKE', 2_345, 61)).toBe(21_000);
    expect(fareOf('MOTORBIKE', 2_345, 61, 12_500)).toBe(26_000);
    // 25,000 + 9,800 × 1 + 500 × 0 = 34,800 → 35,000; below the minimum the minimum is surged
    expect(fareOf('CAR', 1_000, 0)).toBe(35_000);
    expect(fareOf('CAR', 0, 0, 15_000)).toBe(48_000);
    expect(fareOf('MOTORBIKE', 2_345.4, 60.6)).toBe(fareOf('MOTORBIKE', 2_345, 61)); // whole metres and seconds
    expect(fareCapOf(25_000)).toBe(30_000);
    expect(fareCapOf(26_000)).toBe(32_000); // 31,200 → 32,000
    for (const [d, s, bp] of [
      [0, 0, 10_000],
      [12_345, 1_234, 17_500],
      [40_000, 3_600, 20_000],
    ])
      expect(Number.isSafeInteger(fareOf('CAR_7', d, s, bp)) && fareOf('CAR_7', d, s, bp) % 1_000).toBe(0);
  });
});

describe('holds: a failed read is not "no ride"; only a captured hold is paid (item 2)', () => {
  it('a booking that fails and cannot read its ride back keeps the hold (the hold check decides)', async () => {
    const payments = { hold: jest.fn(async () => ({ id: 'P1', status: 'AUTHORIZED', amount: fareCapOf(25_000) })), release: jest.fn(async () => undefined) };
    jest.spyOn(ridesRepo, 'get').mockResolvedValueOnce(undefined).mockRejectedValue(new Error('deadline exceeded'));
    jest.spyOn(ridesRepo, 'activeOf').mockResolvedValue(null as never);
    jest.spyOn(dispatchPool, 'nearbyAvailable').mockRejectedValue(new Error('search failed'));
    await expect(
      service(payments).create('U1', { pickup, dropoff, vehicleType: 'MOTORBIKE', paymentMethod: 'WALLET', quoteId: signQuote(terms, key) }, 'k1'),
    ).rejects.toThrow('search failed');
    expect(payments.hold).toHaveBeenCalledTimes(1);
    expect(payments.release).not.toHaveBeenCalled();
  });

  it('a capture that conflicts accepts a captured hold, and refuses (never records) a released one', async () => {
    const update = jest.spyOn(ridesRepo, 'update').mockResolvedValue(undefined as never);
    const conflict = Object.assign(new Error('transition'), { code: 'PAYMENT_TRANSITION' });
    const released = { capture: jest.fn(async () => Promise.reject(conflict)), get: jest.fn(async () => ({ id: 'P1', status: 'CANCELLED' })) };
    await expect(service(released).settleAndRecord(ride())).rejects.toMatchObject({ code: 'RIDE_HOLD_NOT_CAPTURED' });
    expect(update).not.toHaveBeenCalled();
    const captured = { capture: jest.fn(async () => Promise.reject(conflict)), get: jest.fn(async () => ({ id: 'P1', status: 'SUCCEEDED' })) };
    expect(await service(captured).settleAndRecord(ride())).toMatchObject({ paymentId: 'P1' });
    expect(update).toHaveBeenCalledWith('R1', { paymentId: 'P1' });
  });
});

describe('hold hygiene (item 8)', () => {
  it('a retry finding an AUTHORIZED hold of another amount gives it back and holds the new quote’s cap', async () => {
    const payments = {
      hold: jest
        .fn()
        .mockResolvedValueOnce({ id: 'P-old', status: 'AUTHORIZED', amount: 99_000 })
        .mockResolvedValueOnce({ id: 'P-new', status: 'AUTHORIZED', amount: fareCapOf(25_000) }),
      release: jest.fn(async () => undefined),
    };
    jest.spyOn(ridesRepo, 'get').mockResolvedValueOnce(undefined).mockRejectedValue(new Error('unavailable'));
    jest.spyOn(ridesRepo, 'activeOf').mockResolvedValue(null as never);
    jest.spyOn(dispatchPool, 'nearbyAvailable').mockRejectedValue(new Error('search failed'));
    await expect(
      service(payments).create('U1', { pickup, dropoff, vehicleType: 'MOTORBIKE', paymentMethod: 'WALLET', quoteId: signQuote(terms, key) }, 'k1'),
    ).rejects.toThrow('search failed');
    expect(payments.release).toHaveBeenCalledWith('P-old', expect.any(String));
    expect(payments.hold).toHaveBeenCalledTimes(2);
    expect(payments.hold.mock.calls[1][0]).toMatchObject({ amount: fareCapOf(25_000) });
  });

  it('the hold check waits until the hold is RIDE_HOLD_EXPIRY_SEC old, and releases a hold the ride does not hold', async () => {
    const release = jest.fn(async () => undefined);
    const young = { get: jest.fn(async () => ({ id: 'P1', createdAt: new Date(T - 60_000).toISOString() })), release };
    const get = jest.spyOn(ridesRepo, 'get').mockResolvedValue(ride({ status: 'CONFIRMED', holdPaymentId: 'P2' }));
    expect(await service(young).checkHold('R1', 'P1')).toBe('not-due');
    expect(release).not.toHaveBeenCalled();
    expect(get).not.toHaveBeenCalled();
    const old = { get: jest.fn(async () => ({ id: 'P1', createdAt: new Date(T - 901_000).toISOString() })), release };
    expect(await service(old).checkHold('R1', 'P1')).toBe('released');
    expect(release).toHaveBeenCalledWith('P1', expect.any(String));
    get.mockResolvedValue(ride({ status: 'CONFIRMED', holdPaymentId: 'P1' }));
    expect(await service(old).checkHold('R1', 'P1')).toBe('active');
  });
});

describe('faked positions (item 3)', () => {
  const from = { lat: 10.7769, lng: 106.7009 };
  const north = (m: number) => ({ lat: from.lat + m / 111_320, lng: from.lng });
  type Loc = { tripActive: boolean; tripDistanceM: number; tripStartedAt: number; tripAnchor: { lat: number; lng: number } | null; lat: number; lng: number };
  const start: Loc = { tripActive: true, tripDistanceM: 0, tripStartedAt: 0, tripAnchor: from, lat: from.lat, lng: from.lng };

  it('back-and-forth within the drift adds nothing; beyond it, never more than the speed limit since pickup (drift allowed once)', () => {
    let loc = { ...start };
    for (let s = 1; s <= 60; s++) {
      const point = s % 2 ? north(JUMP_SLACK_M - 5) : from;
      loc = { ...loc, ...tripStep(loc, point, s * 1_000, 200), ...point };
    }
    expect(loc.tripDistanceM).toBe(0);
    loc = { ...start };
    for (let s = 1; s <= 60; s++) {
      const point = s % 2 ? north(155) : from;
      loc = { ...loc, ...tripStep(loc, point, s * 1_000, 200), ...point };
    }
    expect(loc.tripDistanceM).toBeLessThanOrEqual(Math.round((200 / 3.6) * 60 + JUMP_SLACK_M));
    expect(loc.tripDistanceM).toBeGreaterThan(0);
  });

  it('real driving is counted from the last counted point; nothing counts off a trip', () => {
    let loc = { ...start };
    for (let s = 1; s <= 100; s++) loc = { ...loc, ...tripStep(loc, north(s * 10), s * 1_000, 200), ...north(s * 10) };
    expect(loc.tripDistanceM).toBeGreaterThan(900);
    expect(loc.tripDistanceM).toBeLessThanOrEqual(1_000);
    expect(tripStep({ ...start, tripActive: false }, north(5_000), 1_000, 200)).toEqual({ tripDistanceM: 0, tripAnchor: null });
  });

  it('a position is fresh only when a report within the window also preceded it (the first one after a gap is not)', () => {
    expect(isFreshPosition({ locatedAt: 1_000_000, prevLocatedAt: 1_000_000 - 600_000 }, 1_000_500, 120)).toBe(false);
    expect(isFreshPosition({ locatedAt: 1_000_000, prevLocatedAt: null }, 1_000_500, 120)).toBe(false);
    expect(isFreshPosition({ locatedAt: 1_000_000, prevLocatedAt: 998_000 }, 1_000_500, 120)).toBe(true);
    expect(isFreshPosition({ locatedAt: 1_000_000, prevLocatedAt: 998_000 }, 1_000_000 + 121_000, 120)).toBe(false);
  });
});
