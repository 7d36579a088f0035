import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodePolyline, encodePolyline, estimateRoute, isRushHour, RIDE_CLASSES } from '../../../src/modules/routing/routing.model';
import { RIDE_CLASSES as DRIVER_RIDE_CLASSES } from '../../../src/modules/driver';
import { RIDE_CLASSES as RIDES_RIDE_CLASSES } from '../../../src/modules/rides';
import { osrmRouter } from '../../../src/modules/routing/routing.service';
import { dispatchKeyOf, rideClassOf } from '../../../src/modules/driver/driver.model';
import { fareOf, readQuote, signQuote, surgeOf, type QuoteTerms } from '../../../src/modules/rides/rides.model';
import { quoteKeyOf } from '../../../src/modules/rides/rides.service';

describe('routing', () => {
  it("encodes polylines as Google's documented example, and back", () => {
    const points = [
      { lat: 38.5, lng: -120.2 },
      { lat: 40.7, lng: -120.95 },
      { lat: 43.252, lng: -126.453 },
    ];
    expect(encodePolyline(points)).toBe('_p~iF~ps|U_ulLnnqC_mqNvxq`@');
    expect(decodePolyline('_p~iF~ps|U_ulLnnqC_mqNvxq`@')).toEqual(points);
  });

  it('estimates road distance from the straight line, and time from the vehicle and the hour (Vietnam rush hours)', () => {
    const from = { lat: 10.7769, lng: 106.7009 };
    const to = { lat: 10.8231, lng: 106.6297 }; // Ben Thanh → Tan Son Nhat, ≈ 9.3 km straight
    const offPeak = Date.UTC(2026, 10, 24, 4, 0); // 11:00 in Vietnam
    const rush = Date.UTC(2026, 10, 24, 10, 30); // 17:30 in Vietnam
    expect(isRushHour(offPeak)).toBe(false);
    expect(isRushHour(rush)).toBe(true);
    const bike = estimateRoute(from, to, 'MOTORBIKE', offPeak);
    expect(bike.distanceM).toBeGreaterThan(12_000);
    expect(bike.distanceM).toBeLessThan(13_500);
    expect(estimateRoute(from, to, 'MOTORBIKE', rush).durationSec).toBeGreaterThan(bike.durationSec);
    expect(estimateRoute(from, to, 'CAR', rush).durationSec).toBeGreaterThan(estimateRoute(from, to, 'MOTORBIKE', rush).durationSec);
    expect(decodePolyline(bike.polyline)[8]).toEqual({ lat: 10.8231, lng: 106.6297 });
  });

  it('asks OSRM for the driving route and reads distance, duration and geometry; NoRoute is 422, an unreachable server 503', async () => {
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      seen.push(req.url!);
      res.setHeader('content-type', 'application/json');
      if (req.url!.includes('0,0;')) {
        res.end(JSON.stringify({ code: 'NoRoute', message: 'Impossible route between points' }));
        return;
      }
      res.end(JSON.stringify({ code: 'Ok', routes: [{ distance: 11_834.6, duration: 1_422.2, geometry: '_p~iF~ps|U_ulLnnqC' }] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const route = await osrmRouter(base).route({ lat: 10.7769, lng: 106.7009 }, { lat: 10.8231, lng: 106.6297 }, 'CAR', 0);
      expect(route).toEqual({ distanceM: 11_835, durationSec: 1_422, polyline: '_p~iF~ps|U_ulLnnqC', provider: 'osrm' });
      expect(seen[0]).toBe('/route/v1/driving/106.7009,10.7769;106.6297,10.8231?overview=full&geometries=polyline&alternatives=false&steps=false');
      await expect(osrmRouter(base).route({ lat: 0, lng: 0 }, { lat: 1, lng: 1 }, 'CAR', 0)).rejects.toMatchObject({
        statusCode: 422,
        code: 'ROUTING_NO_ROUTE',
      });
    } finally {
      await new Promise((r) => server.close(r));
    }
    await expect(osrmRouter(base, 500).route({ lat: 1, lng: 1 }, { lat: 2, lng: 2 }, 'CAR', 0)).rejects.toMatchObject({
      statusCode: 503,
      code: 'ROUTING_UNAVAILABLE',
    });
  });
});

describe('fares, surge and quotes', () => {
  it('fares: base + km + minutes, at least the minimum, times the surge, rounded up to 1,000 VND', () => {
    expect(fareOf('MOTORBIKE', 0, 0)).toBe(13_000);
    expect(fareOf('MOTORBIKE', 5_000, 900)).toBe(Math.ceil((10_000 + 4_300 * 5 + 300 * 15) / 1000) * 1000);
    expect(fareOf('MOTORBIKE', 5_000, 900, 15_000)).toBe(Math.ceil(((10_000 + 4_300 * 5 + 300 * 15) * 1.5) / 1000) * 1000);
    expect(fareOf('CAR_7', 5_000, 900)).toBeGreaterThan(fareOf('CAR', 5_000, 900));
  });

  it('surge rises with requests per free driver and stops at 2×', () => {
    expect(surgeOf(3, 5)).toBe(10_000);
    expect(surgeOf(10, 5)).toBe(12_500);
    expect(surgeOf(10, 0)).toBe(20_000);
    expect(surgeOf(100, 1)).toBe(20_000);
  });

  it('a quote id carries its terms signed: any change, or another key, makes it unreadable', () => {
    const key = quoteKeyOf('server-secret-0123456789abcdef0123456789');
    const terms: QuoteTerms = {
      riderId: 'u1',
      rideClass: 'CAR',
      pickup: { lat: 10, lng: 106 },
      dropoff: { lat: 10.1, lng: 106.1 },
      fare: 50_000,
      distanceM: 14_000,
      durationSec: 1_800,
      surgeBp: 10_000,
      expiresAt: 1,
    };
    const id = signQuote(terms, key);
    expect(readQuote(id, key)).toEqual(terms);
    expect(readQuote(id, quoteKeyOf('another-secret-0123456789abcdef01234567'))).toBeUndefined();
    const [body, sig] = id.split('.');
    const altered = Buffer.from(JSON.stringify({ ...terms, fare: 1 })).toString('base64url');
    expect(readQuote(`${altered}.${sig}`, key)).toBeUndefined();
    expect(readQuote(`${body}`, key)).toBeUndefined();
    expect(readQuote(`${body}.${sig}.x`, key)).toBeUndefined();
  });

  it('one list of ride classes: routing owns it, driver and rides hand out the same list', () => {
    expect(RIDE_CLASSES).toEqual(['MOTORBIKE', 'CAR', 'CAR_7']);
    expect(DRIVER_RIDE_CLASSES).toBe(RIDE_CLASSES);
    expect(RIDES_RIDE_CLASSES).toBe(RIDE_CLASSES);
  });

  it('drivers: the ride class of a vehicle, and when dispatch may offer them a ride', () => {
    expect(rideClassOf({ type: 'MOTORBIKE', plate: 'x', model: null, color: null, seats: 2 })).toBe('MOTORBIKE');
    expect(rideClassOf({ type: 'CAR', plate: 'x', model: null, color: null, seats: 7 })).toBe('CAR_7');
    expect(rideClassOf({ type: 'VAN', plate: 'x', model: null, color: null, seats: null })).toBe('CAR_7');
    expect(rideClassOf({ type: 'BICYCLE', plate: 'x', model: null, color: null, seats: 1 })).toBeNull();
    const free = { status: 'ONLINE' as const, capabilities: ['RIDE' as const], rideClass: 'CAR' as const, currentRideId: null, geohash: 'w3gv' };
    expect(dispatchKeyOf(free)).toBe('CAR');
    expect(dispatchKeyOf({ ...free, currentRideId: 'r1' })).toBeNull();
    expect(dispatchKeyOf({ ...free, status: 'OFFLINE' })).toBeNull();
    expect(dispatchKeyOf({ ...free, capabilities: ['DELIVERY'] })).toBeNull();
    expect(dispatchKeyOf({ ...free, geohash: null })).toBeNull();
  });
});
