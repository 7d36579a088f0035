import { z } from 'zod';
import type { AppConfig } from '../../platform/core/config';
import { NotFoundError, UnprocessableError } from '../../platform/core/errors/app-error';
import { DocumentIdSchema, IdParamsSchema } from '../../platform/core/http/ids';
import type { AppContext } from '../../platform/core/http/module';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import type { Caller } from '../../platform/kits/catalog/catalog.access';
import { DEFAULT_TIME_ZONE } from '../../platform/kits/catalog/hours';
import { hoursOf } from '../../platform/kits/inventory/units';
import { rangeProblemError } from '../../platform/kits/inventory/units.schemas';
import { bookingRequest, BookedSchema, BookingPaymentBodySchema, bookingsService, type Booked, type PayBy } from '../bookings';
import { PARKING_VEHICLES, parkingLots } from './parking.catalog';
import type { ClaimedRun } from '../../platform/core/http/route';

// Booking a space of a lot for a time window by vehicle type, on the booking engine: whole hours of the lot's zone,
// one inventory document per lot, vehicle type and hour, capacity the lot's `bookableSpaces` of that type. The
// operator checks the car in at the gate (from 30 minutes before) and out at the exit (`complete`): each hour begun
// past the end and 15 minutes' grace is charged from the wallet (the engine's overstay rule).

/** A booking is 1 to 72 hours, starting within 30 days. */
export const PARKING_RULES = { maxUnits: 72, maxDaysAhead: 30 } as const;
/** Without a policy of the lot: free until an hour before, then the whole price. */
export const PARKING_DEFAULT_POLICY = { freeUntilHours: 1, lateFeeBp: 10_000 } as const;
const HOUR_MS = 3_600_000;

type Vehicle = (typeof PARKING_VEHICLES)[number];

const HourSchema = z.iso.datetime({ offset: true }).describe('On a whole hour of Vietnam time, e.g. `2027-03-01T18:00:00+07:00`');
const SpacesQuery = z.object({ vehicleType: z.enum(PARKING_VEHICLES), from: HourSchema, to: HourSchema });
const SpacesSchema = z
  .object({
    lotId: z.string(),
    vehicleType: z.enum(PARKING_VEHICLES),
    bookableSpaces: z.number().int(),
    pricePerHourVnd: z.number().int(),
    hours: z.array(z.object({ hour: z.string().describe('Local hour `YYYY-MM-DDTHH`'), spacesLeft: z.number().int() })),
  })
  .meta({ id: 'ParkingSpaceAvailability' });
const BookBody = z
  .object({
    lotId: DocumentIdSchema,
    vehicleType: z.enum(PARKING_VEHICLES),
    from: HourSchema,
    to: HourSchema,
    plate: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[0-9A-Z.\- ]{4,15}$/, 'a licence plate, e.g. 51F-123.45')
      .describe('Shown to the operator at the gate'),
    payment: BookingPaymentBodySchema,
  })
  .meta({ id: 'ParkingBookingBody' });

export function createParkingBookings(config: Readonly<AppConfig>, now: () => number = Date.now) {
  const zone = DEFAULT_TIME_ZONE;
  const bookings = () => bookingsService(config);

  /** An active lot taking bookings of this vehicle type, with its price and bookable spaces. */
  async function bookableLot(lotId: string, vehicle: Vehicle) {
    const [lot] = await parkingLots().activeByIds([lotId]);
    if (!lot || !lot.partnerId) throw new NotFoundError('No such parking lot');
    const spaces = lot.details.bookableSpaces?.[vehicle] ?? 0;
    const price = lot.details.pricesPerHour[vehicle];
    // A free lot takes no bookings: nothing paid ahead would stop one account holding every space.
    if (spaces <= 0 || price === undefined || price <= 0)
      throw new UnprocessableError(`This lot takes no bookings for a ${vehicle.toLowerCase()}`, { vehicleType: vehicle }).withCode('PARKING_NOT_BOOKABLE');
    return { lot, spaces, price, partnerId: lot.partnerId };
  }
  const hoursOrThrow = (from: string, to: string, where: 'query' | 'body') => {
    const r = hoursOf(Date.parse(from), Date.parse(to), PARKING_RULES, now(), zone);
    if ('problem' in r) throw rangeProblemError(r, { from: `${where}.from`, to: `${where}.to` });
    return r.units;
  };
  const resourceOf = (lotId: string, vehicle: Vehicle) => `${lotId}:${vehicle}`;

  return {
    async spaces(lotId: string, q: z.output<typeof SpacesQuery>) {
      const { spaces, price } = await bookableLot(lotId, q.vehicleType);
      const hours = hoursOrThrow(q.from, q.to, 'query');
      const left = await bookings().engine.available('PARKING', resourceOf(lotId, q.vehicleType), hours, () => spaces);
      return {
        lotId,
        vehicleType: q.vehicleType,
        bookableSpaces: spaces,
        pricePerHourVnd: price,
        hours: left.map((u) => ({ hour: u.unit, spacesLeft: u.available })),
      };
    },

    async book(caller: Caller, body: z.output<typeof BookBody>, payment: PayBy, idempotencyKey: string, run: ClaimedRun): Promise<Booked> {
      const { lot, spaces, price, partnerId } = await bookableLot(body.lotId, body.vehicleType);
      const hours = hoursOrThrow(body.from, body.to, 'body');
      const startsAt = Date.parse(body.from);
      return bookings().book(
        {
          idempotencyKey,
          vertical: 'PARKING',
          consumerId: caller.userId,
          partnerId,
          resource: { id: resourceOf(lot.id, body.vehicleType), name: `${lot.name} · ${body.vehicleType}`, parentId: lot.id, parentName: lot.name },
          capacityOf: () => spaces,
          units: hours,
          qty: 1,
          timeZone: zone,
          startsAt,
          endsAt: startsAt + hours.length * HOUR_MS,
          priceVnd: price * hours.length,
          policy: lot.details.cancellation ?? PARKING_DEFAULT_POLICY,
          details: { lotId: lot.id, vehicleType: body.vehicleType, plate: body.plate, pricePerHourVnd: price, address: lot.address },
        },
        payment,
        run,
      );
    },
  };
}

const READS = { scope: 'parking-spaces', limit: 120, windowSec: 600, per: 'user' } as const;

/** A lot's bookable spaces by the hour, and booking one (its moves, lists and cancellation are the shared /bookings routes). */
export function parkingBookingRoutes({ config }: AppContext): AnyRoute[] {
  const parking = createParkingBookings(config);
  return [
    defineRoute({
      method: 'get',
      path: '/parking/lots/:id/spaces',
      operationId: 'getParkingSpaceAvailability',
      tag: 'parking',
      summary: 'A lot’s bookable spaces of a vehicle type, hour by hour',
      description: `Spaces left = the lot’s bookableSpaces of the type minus confirmed and held bookings. Whole hours of Vietnam time, at most ${PARKING_RULES.maxUnits} at a time, starting within ${PARKING_RULES.maxDaysAhead} days; a start already past is 400. A lot that takes no bookings of the type is 422 PARKING_NOT_BOOKABLE.`,
      auth: [],
      rateLimit: READS,
      errors: [404, 422],
      codes: ['PARKING_NOT_BOOKABLE'],
      request: { params: IdParamsSchema, query: SpacesQuery },
      response: { description: 'Each hour.', schema: SpacesSchema },
      handler: ({ params, query }) => parking.spaces(params.id, query),
    }),
    defineRoute({
      method: 'post',
      path: '/parking/bookings',
      operationId: 'bookParkingSpace',
      tag: 'parking',
      summary: 'Book a parking space for a time window, paid ahead',
      description:
        'Whole hours (`from`, `to` on the hour), priced at the lot’s hourly rate for the vehicle type, held 10 minutes for the payment: WALLET confirms at once, GATEWAY answers `payment.paymentUrl`. The operator checks the vehicle in at the gate (POST /bookings/{id}/check-in, from 30 minutes before) and out at the exit (POST /bookings/{id}/complete): each hour begun past the end and 15 minutes’ grace is charged from the wallet (`extraCharge`). The last space raced by many: one booking, the others 409 BOOKING_UNAVAILABLE. Cancelling follows the lot’s policy (free until 1 h before, then the whole price, when it sets none). Idempotency-Key required.',
      ...bookingRequest(['PARKING_NOT_BOOKABLE', 'WALLET_INSUFFICIENT_FUNDS']),
      request: { body: BookBody },
      response: { status: 201, description: 'The booking (CONFIRMED, or HELD awaiting a gateway payment) and its payment.', schema: BookedSchema },
      handler: ({ body, auth, idempotencyKey, req, claimed, answerInCommit }) =>
        parking.book(auth!, body, { ...body.payment, clientIp: req.ip }, idempotencyKey!, { claimed: claimed!, answerInCommit }),
    }),
  ];
}
