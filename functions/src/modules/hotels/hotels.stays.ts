import type { AppConfig } from '../../platform/core/config';
import { NotFoundError, UnprocessableError, ValidationError } from '../../platform/core/errors/app-error';
import type { Caller } from '../../platform/kits/catalog/catalog.access';
import type { CatalogRecord } from '../../platform/kits/catalog/catalog.model';
import { DEFAULT_TIME_ZONE } from '../../platform/kits/catalog/hours';
import { atLocal, datesBetween, nightsOf, weekdayOf } from '../../platform/kits/inventory/units';
import { rangeProblemError } from '../../platform/kits/inventory/units.schemas';
import { bookingsService, FREE_CANCELLATION, type Booked, type PayBy } from '../bookings';
import { DEFAULT_POLICY, DEFAULT_TIMES, HOTEL_CITIES, hotelRecords, hotelRooms, type HotelDetails, type RoomTypeBody } from './hotels.catalog';
import type { ClaimedRun } from '../../platform/core/http/route';

// A stay: the nights from check-in to check-out in the hotel's zone, priced night by night (the room type's weekday,
// weekend or holiday rate) and held on the booking engine, one inventory document per room type and night.

/** A stay is at most 30 nights, starting within a year. */
export const STAY_RULES = { maxUnits: 30, maxDaysAhead: 365 } as const;
/** A search checks the nights of at most this many of a hotel's fitting room types, cheapest first. */
export const SEARCH_ROOM_TYPES_CHECKED = 3;
/** Availability is shown for at most 62 days at a time. */
export const AVAILABILITY_MAX_DAYS = 62;

/** Where a city search looks from (the city's centre) and how far (its hotels are kept by their `city`). */
export const CITY_CENTRES: Readonly<Record<(typeof HOTEL_CITIES)[number], { lat: number; lng: number }>> = {
  HO_CHI_MINH: { lat: 10.7769, lng: 106.7009 },
  HA_NOI: { lat: 21.0285, lng: 105.8542 },
  DA_NANG: { lat: 16.0544, lng: 108.2022 },
  HOI_AN: { lat: 15.8801, lng: 108.338 },
  HUE: { lat: 16.4637, lng: 107.5909 },
  NHA_TRANG: { lat: 12.2388, lng: 109.1967 },
  DA_LAT: { lat: 11.9404, lng: 108.4583 },
  PHU_QUOC: { lat: 10.2899, lng: 103.984 },
  VUNG_TAU: { lat: 10.346, lng: 107.0843 },
  HA_LONG: { lat: 20.9599, lng: 107.0425 },
  SA_PA: { lat: 22.3364, lng: 103.8438 },
  HAI_PHONG: { lat: 20.8449, lng: 106.6881 },
  CAN_THO: { lat: 10.0452, lng: 105.7469 },
  QUY_NHON: { lat: 13.782, lng: 109.2197 },
};
export const CITY_RADIUS_M = 30_000;

type Hotel = Pick<CatalogRecord<HotelDetails>, 'id' | 'name' | 'partnerId' | 'status' | 'details'>;
type RoomType = Omit<RoomTypeBody, 'photoIds'> & { roomTypeId: string; hotelId: string };
/** A stored room type with its keys typed (the kit stores them beside the body's fields). */
const asRoom = <T extends Omit<RoomTypeBody, 'photoIds'> & Record<string, unknown>>(item: T): RoomType => ({
  ...item,
  roomTypeId: String(item.roomTypeId),
  hotelId: String(item.hotelId),
});

/** The price of one room for one night: the holiday rate on the hotel's holidays, the weekend rate on Friday and Saturday nights. */
export function nightPrice(room: Pick<RoomTypeBody, 'rates'>, holidays: readonly string[], night: string): number {
  if (room.rates.holidayVnd !== undefined && holidays.includes(night)) return room.rates.holidayVnd;
  const day = weekdayOf(night);
  if (room.rates.weekendVnd !== undefined && (day === 5 || day === 6)) return room.rates.weekendVnd;
  return room.rates.weekdayVnd;
}

/** Each night's price of `rooms` rooms of the type, and the stay's total. */
export function priceStay(room: Pick<RoomTypeBody, 'rates'>, holidays: readonly string[], nights: readonly string[], rooms: number) {
  const nightly = nights.map((date) => ({ date, priceVnd: nightPrice(room, holidays, date) * rooms }));
  return { nightly, totalVnd: nightly.reduce((sum, n) => sum + n.priceVnd, 0) };
}

export interface StayAsk {
  checkIn: string;
  checkOut: string;
  guests: number;
  rooms: number;
}

export function createHotelStays(config: Readonly<AppConfig>, now: () => number = Date.now) {
  const bookings = () => bookingsService(config);
  const zone = DEFAULT_TIME_ZONE;
  const nightsOrThrow = (checkIn: string, checkOut: string, where: 'query' | 'body') => {
    const r = nightsOf(checkIn, checkOut, STAY_RULES, now(), zone);
    if ('problem' in r) throw rangeProblemError(r, { from: `${where}.checkIn`, to: `${where}.checkOut` });
    return r.units;
  };

  /** An active hotel with a partner, or 404 (a hidden or archived hotel takes no bookings). */
  async function openHotel(hotelId: string): Promise<Hotel> {
    const [hotel] = await hotelRecords().activeByIds([hotelId]);
    if (!hotel || !hotel.partnerId) throw new NotFoundError('No such hotel');
    return hotel;
  }
  /** The open hotel and its room type, in one read (404 for either). */
  async function hotelAndRoom(hotelId: string, roomTypeId: string): Promise<[Hotel, RoomType]> {
    const { record: hotel, items } = await hotelRooms().activeWithItems<CatalogRecord<HotelDetails>>(hotelId, [roomTypeId]);
    if (!hotel || !hotel.partnerId) throw new NotFoundError('No such hotel');
    const room = items.get(roomTypeId);
    if (!room) throw new NotFoundError('No such room type in this hotel').withCode('HOTEL_ROOM_NOT_FOUND');
    return [hotel, asRoom(room)];
  }
  const availableOf = async (room: RoomType, nights: readonly string[]) => bookings().engine.available('HOTEL', resourceIdOf(room), nights, () => room.rooms);

  /** Each room type of the hotel for the stay: whether it fits the guests, how many rooms are left each night, the price. */
  async function offers(holidays: readonly string[], rooms: readonly RoomType[], ask: StayAsk, nights: readonly string[], checkAll = true) {
    const fitting = rooms
      .filter((r) => r.maxGuests * ask.rooms >= ask.guests && r.rooms >= ask.rooms)
      .map((r) => ({ room: r, ...priceStay(r, holidays, nights, ask.rooms) }))
      .sort((a, b) => a.totalVnd - b.totalVnd || a.room.roomTypeId.localeCompare(b.room.roomTypeId));
    const out: Array<(typeof fitting)[number] & { roomsLeft: number }> = [];
    // A search looks for the cheapest with rooms left among the few cheapest (each costs its nights' reads).
    for (const offer of checkAll ? fitting : fitting.slice(0, SEARCH_ROOM_TYPES_CHECKED)) {
      const left = Math.min(...(await availableOf(offer.room, nights)).map((u) => u.available));
      if (left >= ask.rooms) {
        out.push({ ...offer, roomsLeft: left });
        if (!checkAll) break;
      }
    }
    return out;
  }
  const offerView = (o: Awaited<ReturnType<typeof offers>>[number]) => ({
    roomTypeId: o.room.roomTypeId,
    name: o.room.name,
    maxGuests: o.room.maxGuests,
    beds: o.room.beds,
    roomsLeft: o.roomsLeft,
    nightly: o.nightly,
    totalVnd: o.totalVnd,
  });

  return {
    /** A room type's nights from `from` to `to` (both included): rooms left and the price of one room each night. */
    async availability(hotelId: string, roomTypeId: string, q: { from: string; to: string }) {
      const [hotel, room] = await hotelAndRoom(hotelId, roomTypeId);
      if (q.to < q.from)
        throw new ValidationError('Validation failed: query.to: must not be before from', [{ field: 'query.to', message: 'must not be before from' }]);
      const dates = datesBetween(q.from, q.to);
      if (dates.length > AVAILABILITY_MAX_DAYS)
        throw new ValidationError(`Validation failed: query.to: at most ${AVAILABILITY_MAX_DAYS} days`, [
          { field: 'query.to', message: `at most ${AVAILABILITY_MAX_DAYS} days from from` },
        ]);
      const left = await availableOf(room, dates);
      const holidays = hotel.details.holidays ?? [];
      return {
        hotelId,
        roomTypeId,
        rooms: room.rooms,
        nights: left.map((u) => ({ date: u.unit, roomsLeft: u.available, priceVnd: nightPrice(room, holidays, u.unit) })),
      };
    },

    /** The hotel's room types that fit the stay and have rooms left every night, cheapest first, priced for the whole stay. */
    async quote(hotelId: string, ask: StayAsk) {
      const hotel = await openHotel(hotelId);
      const nights = nightsOrThrow(ask.checkIn, ask.checkOut, 'query');
      const rooms = (await hotelRooms().ofRecords([hotelId])).map(asRoom);
      return { hotelId, nights: nights.length, offers: (await offers(hotel.details.holidays ?? [], rooms, ask, nights)).map(offerView) };
    },

    /**
     * Hotels of a city (from its centre) or near a point with a room type that fits the guests and has rooms left
     * every night, each with its cheapest such room and the stay's price; a page of candidates in distance order,
     * those without a room left dropped (a page may be shorter than `limit`; follow nextCursor).
     */
    async search(
      q: StayAsk & { city?: (typeof HOTEL_CITIES)[number]; lat?: number; lng?: number; radiusM?: number; minStars?: number; limit: number; cursor?: string },
      caller: Caller,
      budget: number,
    ) {
      const nights = nightsOrThrow(q.checkIn, q.checkOut, 'query');
      const centre = q.city && q.lat === undefined ? CITY_CENTRES[q.city] : { lat: q.lat!, lng: q.lng! };
      const page = await hotelRecords().nearby(
        {
          ...centre,
          radiusM: q.city && q.lat === undefined ? CITY_RADIUS_M : (q.radiusM ?? 5_000),
          limit: q.limit,
          cursor: q.cursor,
          city: q.city,
          minStars: q.minStars,
        } as never,
        caller,
        { budget },
      );
      const found = page.items;
      const rooms = (await hotelRooms().ofRecords(found.map((h) => h.id))).map(asRoom);
      const byHotel = new Map<string, RoomType[]>();
      for (const r of rooms) byHotel.set(r.hotelId, [...(byHotel.get(r.hotelId) ?? []), r]);
      const answered = await Promise.all(
        found.map(async (hotel) => {
          const [best] = await offers(hotel.holidays ?? [], byHotel.get(hotel.id) ?? [], q, nights, false);
          return best ? { hotel, cheapest: offerView(best) } : undefined;
        }),
      );
      return { nights: nights.length, items: answered.filter((a) => a !== undefined), nextCursor: page.nextCursor };
    },

    /**
     * Books a stay: the nights held for the rooms (409 BOOKING_UNAVAILABLE when a night has too few left), priced now,
     * paid ahead (wallet at once, or a gateway page). The same Idempotency-Key answers the same booking.
     */
    async book(
      caller: Caller,
      body: StayAsk & { hotelId: string; roomTypeId: string; note?: string; payment: PayBy },
      idempotencyKey: string,
      run: ClaimedRun,
    ): Promise<Booked> {
      const [hotel, room] = await hotelAndRoom(body.hotelId, body.roomTypeId);
      const nights = nightsOrThrow(body.checkIn, body.checkOut, 'body');
      if (room.maxGuests * body.rooms < body.guests)
        throw new UnprocessableError(`A room of this type takes ${room.maxGuests} guests`, { maxGuests: room.maxGuests, rooms: body.rooms }).withCode(
          'HOTEL_TOO_MANY_GUESTS',
        );
      const { nightly, totalVnd } = priceStay(room, hotel.details.holidays ?? [], nights, body.rooms);
      const times = { checkIn: hotel.details.checkInFrom ?? DEFAULT_TIMES.checkIn, checkOut: hotel.details.checkOutBy ?? DEFAULT_TIMES.checkOut };
      return bookings().book(
        {
          idempotencyKey,
          vertical: 'HOTEL',
          consumerId: caller.userId,
          partnerId: hotel.partnerId!,
          resource: { id: resourceIdOf(room), name: room.name, parentId: hotel.id, parentName: hotel.name },
          capacityOf: () => room.rooms,
          units: nights,
          qty: body.rooms,
          timeZone: zone,
          startsAt: atLocal(body.checkIn, times.checkIn, zone),
          endsAt: atLocal(body.checkOut, times.checkOut, zone),
          priceVnd: totalVnd,
          policy: hotel.details.cancellation ?? (totalVnd > 0 ? DEFAULT_POLICY : FREE_CANCELLATION),
          details: {
            hotelId: hotel.id,
            roomTypeId: room.roomTypeId,
            checkIn: body.checkIn,
            checkOut: body.checkOut,
            guests: body.guests,
            rooms: body.rooms,
            nightly,
            note: body.note ?? null,
          },
        },
        body.payment,
        run,
      );
    },
  };
}

/**
 * A room type's resource on the booking engine: the hotel and the type. The inventory's ids take no `_`, which a
 * type's key may hold and `:` never: `_` is written `:` (one id per type still).
 */
export const resourceIdOf = (room: { hotelId: string; roomTypeId: string }) => `${room.hotelId}:${room.roomTypeId.replaceAll('_', ':')}`;

export type HotelStays = ReturnType<typeof createHotelStays>;
