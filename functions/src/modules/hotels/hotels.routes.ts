import { z } from 'zod';
import type { AppContext } from '../../platform/core/http/module';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { DocumentIdSchema, IdParamsSchema } from '../../platform/core/http/ids';
import { ItemKeySchema } from '../../platform/kits/catalog/catalog.items.routes';
import { LatLngSchema } from '../../platform/kits/geo/geo';
import { IsoDateSchema } from '../../platform/kits/time/time.schemas';
import { CalendarDateSchema } from '../../platform/kits/inventory/units.schemas';
import { bookingRequest, BookedSchema, BookingPaymentBodySchema } from '../bookings';
import { BED_TYPES, HOTEL_CITIES, hotels } from './hotels.catalog';
import { AVAILABILITY_MAX_DAYS, CITY_RADIUS_M, createHotelStays, STAY_RULES } from './hotels.stays';

// A hotel stay's routes beside the catalog's: a room type's availability, a hotel's offers for dates, the search by
// city or nearby answering the whole stay's price, and booking a stay (on the booking engine; its moves and lists
// are the shared /bookings routes).

const Day = CalendarDateSchema;
const StayQuery = z.object({
  checkIn: Day.describe('The first night (local date, YYYY-MM-DD), today or later'),
  checkOut: Day.describe(`The day of leaving: after checkIn, at most ${STAY_RULES.maxUnits} nights`),
  guests: z.coerce.number().int().min(1).max(50).default(2),
  rooms: z.coerce.number().int().min(1).max(10).default(1),
});
const Nightly = z.array(z.object({ date: IsoDateSchema, priceVnd: z.number().int() })).describe('Each night’s price for the rooms asked');
const OfferSchema = z
  .object({
    roomTypeId: z.string(),
    name: z.string(),
    maxGuests: z.number().int(),
    beds: z.array(z.object({ type: z.enum(BED_TYPES), count: z.number().int() })),
    roomsLeft: z.number().int().describe('The fewest rooms of the type left on any night of the stay'),
    nightly: Nightly,
    totalVnd: z.number().int().describe('The whole stay, VND'),
  })
  .meta({ id: 'HotelStayOffer' });

const RoomParams = z.object({ id: DocumentIdSchema, roomTypeId: ItemKeySchema });
const AvailabilityQuery = z.object({ from: Day, to: Day.describe(`The last night shown (at most ${AVAILABILITY_MAX_DAYS} nights)`) });
const AvailabilitySchema = z
  .object({
    hotelId: z.string(),
    roomTypeId: z.string(),
    rooms: z.number().int().describe('Rooms of the type'),
    nights: z.array(z.object({ date: IsoDateSchema, roomsLeft: z.number().int(), priceVnd: z.number().int().describe('One room that night') })),
  })
  .meta({ id: 'HotelRoomAvailability' });

const READS = { scope: 'hotels-search', limit: 120, windowSec: 600, per: 'user' } as const;
const SearchQuery = StayQuery.extend({
  city: z
    .enum(HOTEL_CITIES)
    .optional()
    .describe(`A city (searched within ${CITY_RADIUS_M / 1000} km of its centre)`),
  lat: LatLngSchema.shape.lat.optional(),
  lng: LatLngSchema.shape.lng.optional(),
  radiusM: z.coerce.number().int().min(100).max(30_000).optional().describe('With lat, lng (5,000 by default)'),
  minStars: z.coerce.number().int().min(1).max(5).optional(),
  limit: z.coerce.number().int().min(1).max(20).default(10),
  cursor: z.string().min(1).max(12_000).optional(),
})
  .refine((q) => (q.lat === undefined) === (q.lng === undefined), { message: 'lat and lng go together', path: ['lng'] })
  .refine((q) => q.city !== undefined || q.lat !== undefined, { message: 'send city, or lat and lng', path: ['city'] });
const SearchSchema = z
  .object({
    nights: z.number().int(),
    items: z.array(
      z.object({
        hotel: z.object({ id: z.string(), name: z.string(), distanceM: z.number().optional() }).passthrough().describe('The hotel as the catalog shows it'),
        cheapest: OfferSchema,
      }),
    ),
    nextCursor: z.string().nullable(),
  })
  .meta({ id: 'HotelStaySearch' });

const BookBody = z
  .object({
    hotelId: DocumentIdSchema,
    roomTypeId: ItemKeySchema,
    checkIn: Day,
    checkOut: Day,
    guests: z.number().int().min(1).max(50),
    rooms: z.number().int().min(1).max(10).default(1),
    note: z.string().trim().max(500).optional().describe('For the hotel: arrival time, a cot…'),
    payment: BookingPaymentBodySchema,
  })
  .meta({ id: 'HotelBookingBody' });

/** The catalog's routes (hotels and room types) with the stays' around them (a search's path before `/hotels/:id`). */
export function hotelsRoutes(ctx: AppContext): AnyRoute[] {
  const { before, after } = stayRoutes(ctx);
  return [...before, ...hotels.routes(ctx), ...after];
}

function stayRoutes({ config }: AppContext): { before: AnyRoute[]; after: AnyRoute[] } {
  const stays = createHotelStays(config);
  return {
    before: [
      defineRoute({
        method: 'get',
        path: '/hotels/stays/search',
        operationId: 'searchHotelStays',
        tag: 'hotels',
        summary: 'Hotels for dates and guests, by city or near a point, with the whole stay’s price',
        description:
          'Each hotel with its cheapest room type that takes the guests (`guests` ≤ `rooms` × its maxGuests) and has `rooms` left every night, priced night by night (weekday, weekend and holiday rates). Nearest first (a city from its centre); a hotel with nothing left is dropped, so a page may be shorter than `limit`: follow `nextCursor`. Dates in the past, reversed or longer than 30 nights are 400.',
        auth: [],
        rateLimit: READS,
        errors: [422],
        request: { query: SearchQuery },
        response: { description: 'A page of hotels with their cheapest fitting offer.', schema: SearchSchema },
        handler: ({ query, auth }) => stays.search(query, auth!, config.NEARBY_READ_BUDGET) as never,
      }),
      defineRoute({
        method: 'post',
        path: '/hotels/bookings',
        operationId: 'bookHotelStay',
        tag: 'hotels',
        summary: 'Book a stay: rooms of a type for nights, paid ahead',
        description:
          'The stay is priced now. WALLET holds the nights, pays and CONFIRMS the booking in one transaction; GATEWAY holds them for `holdUntil` (10 minutes, BOOKING_HOLD_MINUTES), answers `payment.paymentUrl` and confirms it when the gateway says paid (an unpaid hold EXPIRES and its nights go back). The last room raced by many: one booking, the others 409 BOOKING_UNAVAILABLE (`details.unit`, `details.available`). A refused wallet payment (409 WALLET_INSUFFICIENT_FUNDS) leaves the booking HELD (unless it would be one hold too many: 409 BOOKING_TOO_MANY_HOLDS): pay it with POST /bookings/{id}/pay. Cancelling (POST /bookings/{id}/cancel) follows the hotel’s policy. Idempotency-Key required: the same key answers the same booking.',
        ...bookingRequest(['HOTEL_ROOM_NOT_FOUND', 'HOTEL_TOO_MANY_GUESTS', 'WALLET_INSUFFICIENT_FUNDS']),
        request: { body: BookBody },
        response: { status: 201, description: 'The booking (CONFIRMED, or HELD awaiting a gateway payment) and its payment.', schema: BookedSchema },
        handler: ({ body, auth, idempotencyKey, req, claimed, answerInCommit }) =>
          stays.book(auth!, { ...body, payment: { ...body.payment, clientIp: req.ip } }, idempotencyKey!, { claimed: claimed!, answerInCommit }),
      }),
    ],
    after: [
      defineRoute({
        method: 'get',
        path: '/hotels/:id/offers',
        operationId: 'listHotelStayOffers',
        tag: 'hotels',
        summary: 'A hotel’s room types for dates and guests, cheapest first, with the whole stay’s price',
        description: 'Only room types that take the guests and have the rooms left every night. A hidden or archived hotel is 404.',
        auth: [],
        rateLimit: READS,
        errors: [404],
        request: { params: IdParamsSchema, query: StayQuery },
        response: { description: 'The hotel’s offers.', schema: z.object({ hotelId: z.string(), nights: z.number().int(), offers: z.array(OfferSchema) }) },
        handler: ({ params, query }) => stays.quote(params.id, query),
      }),
      defineRoute({
        method: 'get',
        path: '/hotels/:id/rooms/:roomTypeId/availability',
        operationId: 'getHotelRoomAvailability',
        tag: 'hotels',
        summary: 'A room type’s nights: rooms left and the price of one room',
        description: `Rooms left = rooms of the type minus confirmed and held bookings (a hold past its time counts for nothing). From \`from\` to \`to\`, both included, at most ${AVAILABILITY_MAX_DAYS} nights.`,
        auth: [],
        rateLimit: READS,
        errors: [404],
        codes: ['HOTEL_ROOM_NOT_FOUND'],
        request: { params: RoomParams, query: AvailabilityQuery },
        response: { description: 'Each night.', schema: AvailabilitySchema },
        handler: ({ params, query }) => stays.availability(params.id, params.roomTypeId, query),
      }),
    ],
  };
}
