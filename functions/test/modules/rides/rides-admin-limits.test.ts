import { randomUUID } from 'node:crypto';
import { signQuote } from '../../../src/modules/rides/rides.model';
import { quoteKeyOf } from '../../../src/modules/rides/rides.service';
import { registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { area, onlineDriver } from '../../helpers/drivers';
import { localSecret, requireEmulators } from '../../helpers/emulators';
import { narrowedAdmin } from '../../helpers/rides';

beforeAll(requireEmulators);

// Rides' administrators need rides.manage (issue 29, item 2); rides' user writes have per-user limits and
// cancellations within the grace period are no demand for surge (item 14).

const key = () => randomUUID();
type Here = ReturnType<typeof area>;
const trip = (here: Here) => ({ pickup: here.near(0), dropoff: here.near(2_000), vehicleType: 'MOTORBIKE', paymentMethod: 'CASH' });
const book = (rider: Tokens, body: Record<string, unknown>) =>
  call('POST', '/rides', { token: rider.accessToken, body, headers: { 'idempotency-key': key() } });

describe('rides administration needs rides.manage', () => {
  it('an admin holding [] gets 403 on every rides admin route and 404 on rides it is no party to; rides.manage opens them', async () => {
    const here = area();
    await onlineDriver(here.near(100));
    const rider = await registerVerified();
    const ride = (await book(rider, trip(here))).body;
    expect(ride.status).toBe('CONFIRMED');
    const sos = await call('POST', `/rides/${ride.id}/sos`, { token: rider.accessToken, body: { message: 'help' }, headers: { 'idempotency-key': key() } });
    expect(sos.status).toBe(201);
    const [none, manager] = [await narrowedAdmin([]), await narrowedAdmin(['rides.manage'])];

    const adminRoutes: Array<[string, string, unknown?]> = [
      ['GET', '/rides/admin'],
      ['GET', '/rides/admin/stats'],
      ['GET', '/rides/admin/sos'],
      ['GET', '/rides/admin/disputes'],
      ['POST', `/rides/admin/sos/${sos.body.id}/resolve`, { note: 'called the rider' }],
      ['POST', `/rides/admin/${ride.id}/complete`, { fare: 'QUOTE', reason: 'test' }],
    ];
    for (const [method, path, body] of adminRoutes) {
      const refused = await call(method, path, { token: none.accessToken, ...(body ? { body } : {}) });
      expect([path, refused.status, refused.body.code]).toEqual([path, 403, 'PERMISSION_REQUIRED']);
    }
    // Reads and the cancel of a ride: a narrowed admin is a stranger to it (404, as for anyone not a party).
    for (const path of [`/rides/${ride.id}`, `/rides/${ride.id}/driver-location`, `/rides/${ride.id}/events`, `/rides/${ride.id}/receipt`]) {
      expect([path, (await call('GET', path, { token: none.accessToken })).status]).toEqual([path, 404]);
      expect([path, (await call('GET', path, { token: manager.accessToken })).status]).toEqual([path, 200]);
    }
    expect((await call('POST', `/rides/${ride.id}/cancel`, { token: none.accessToken, body: {} })).status).toBe(404);

    for (const [method, path, body] of adminRoutes.slice(0, 5))
      expect([path, (await call(method, path, { token: manager.accessToken, ...(body ? { body } : {}) })).status]).toEqual([path, 200]);
    // Not started: the admin completion is a 409, the cancel works.
    expect((await call('POST', `/rides/admin/${ride.id}/complete`, { token: manager.accessToken, body: { fare: 'QUOTE', reason: 'x' } })).body.code).toBe(
      'RIDE_TRANSITION',
    );
    expect((await call('POST', `/rides/${ride.id}/cancel`, { token: manager.accessToken, body: {} })).body).toMatchObject({
      status: 'CANCELLED',
      cancelledBy: 'admin',
    });
  });
});

describe('per-user limits', () => {
  it('SOS: 5 per user per hour (rides-sos), then 429 with Retry-After; another user is not affected', async () => {
    const here = area();
    await onlineDriver(here.near(100));
    const rider = await registerVerified();
    const ride = (await book(rider, trip(here))).body;
    const raise = () => call('POST', `/rides/${ride.id}/sos`, { token: rider.accessToken, body: {}, headers: { 'idempotency-key': key() } });
    for (let i = 0; i < 5; i++) expect((await raise()).status).toBe(201);
    const limited = await raise();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const other = await registerVerified();
    expect((await call('POST', `/rides/${ride.id}/sos`, { token: other.accessToken, body: {}, headers: { 'idempotency-key': key() } })).status).toBe(404);
  });

  it('cancellations within the grace period do not count toward surge', async () => {
    const here = area();
    await onlineDriver(here.near(100));
    const quoteKey = quoteKeyOf(localSecret('JWT_SECRET'));
    // Three riders book and change their minds at once (signed quotes: no surge is computed while they book).
    for (let i = 0; i < 3; i++) {
      const rider = await registerVerified();
      const body = trip(here);
      const quoteId = signQuote(
        {
          riderId: rider.user.id,
          rideClass: 'MOTORBIKE',
          pickup: body.pickup,
          dropoff: body.dropoff,
          fare: 20_000,
          distanceM: 2_700,
          durationSec: 500,
          surgeBp: 10_000,
          expiresAt: Date.now() + 60_000,
        },
        quoteKey,
      );
      const ride = (await book(rider, { ...body, quoteId })).body;
      expect(ride.status).toBe('CONFIRMED');
      expect((await call('POST', `/rides/${ride.id}/cancel`, { token: rider.accessToken, body: {} })).body).toMatchObject({
        status: 'CANCELLED',
        cancellationFee: 0,
      });
    }
    // Three bookings per free driver would be a 1.5× surge; withdrawn within the grace period they are none.
    const asker = await registerVerified();
    const quote = (
      await call('POST', '/rides/quote', { token: asker.accessToken, body: { pickup: here.near(0), dropoff: here.near(2_000), vehicleType: 'MOTORBIKE' } })
    ).body.quotes[0];
    expect(quote.surge).toBe(1);
  });
});
