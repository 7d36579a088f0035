import { z } from 'zod';
import { ValidationError } from '../../platform/core/errors/app-error';
import { defineCatalog, defineCatalogItems } from '../../platform/kits/catalog/catalog.spec';
import { defineCatalogVertical } from '../../platform/kits/catalog/catalog.vertical';
import { ClockTimeSchema } from '../../platform/kits/catalog/hours';
import { CalendarDateSchema } from '../../platform/kits/inventory/units.schemas';
import { priceRange } from '../../platform/kits/money/money.schemas';
import { partnerCatalogDeps } from '../partners';
import { HOTEL_ROOMS, HOTELS } from './hotels.collections';

// Hotels on the map (the catalog kit) and, under each, its room types (the kit's child items): how many rooms of the
// type, how many guests a room takes, its beds and its nightly rates. Stays are priced, searched and booked in
// hotels.stays.ts on the booking engine.

export { HOTELS, HOTEL_ROOMS };

/** The cities a hotel search names (others are found with `lat`, `lng`). */
export const HOTEL_CITIES = [
  'HO_CHI_MINH',
  'HA_NOI',
  'DA_NANG',
  'HOI_AN',
  'HUE',
  'NHA_TRANG',
  'DA_LAT',
  'PHU_QUOC',
  'VUNG_TAU',
  'HA_LONG',
  'SA_PA',
  'HAI_PHONG',
  'CAN_THO',
  'QUY_NHON',
] as const;
export const BED_TYPES = ['SINGLE', 'DOUBLE', 'TWIN', 'QUEEN', 'KING', 'BUNK'] as const;
const Amenities = z.array(z.string().trim().min(1).max(40)).max(30);

/** A hotel's check-in and check-out times unless it says otherwise. */
export const DEFAULT_TIMES = { checkIn: '14:00', checkOut: '12:00' } as const;
/** A hotel's cancellation policy unless it says otherwise: free until a day before, then half the price. */
export const DEFAULT_POLICY = { freeUntilHours: 24, lateFeeBp: 5_000 } as const;

const rooms = defineCatalogItems({
  collection: HOTEL_ROOMS,
  segment: 'rooms',
  parentField: 'hotelId',
  keyField: 'roomTypeId',
  noun: 'room type',
  nouns: 'room types',
  parentNoun: 'hotel',
  parentNouns: 'hotels',
  schemaName: 'HotelRoomType',
  pluralName: 'HotelRoomTypes',
  putNote: 'rooms, guests and nightly rates',
  photos: true,
  maxPerRecord: 50,
  body: z.object({
    name: z.string().trim().min(2).max(80).describe('"Deluxe Double", "Family Suite"'),
    rooms: z.number().int().min(1).max(1_000).describe('Rooms of this type: what can be booked each night'),
    maxGuests: z.number().int().min(1).max(20).describe('Guests one room takes'),
    beds: z
      .array(z.object({ type: z.enum(BED_TYPES), count: z.number().int().min(1).max(10) }))
      .min(1)
      .max(5),
    areaM2: z.number().int().min(5).max(2_000).optional(),
    amenities: Amenities.default([]).describe('"Bồn tắm", "Ban công", "View biển"…'),
    rates: z
      .object({
        weekdayVnd: priceRange(10_000, 500_000_000).describe('A night from Sunday to Thursday'),
        weekendVnd: priceRange(10_000, 500_000_000).optional().describe('A Friday or Saturday night (weekday rate when absent)'),
        holidayVnd: priceRange(10_000, 500_000_000).optional().describe('A night of the hotel’s `holidays` (the weekend or weekday rate when absent)'),
      })
      .describe('VND per room per night'),
  }),
  view: z.object({
    name: z.string(),
    rooms: z.number().int(),
    maxGuests: z.number().int(),
    beds: z.array(z.object({ type: z.enum(BED_TYPES), count: z.number().int() })),
    areaM2: z.number().int().optional(),
    amenities: z.array(z.string()),
    rates: z.object({ weekdayVnd: z.number().int(), weekendVnd: z.number().int().optional(), holidayVnd: z.number().int().optional() }),
    photos: z.array(z.object({ id: z.string(), url: z.string() })).optional(),
  }),
});

const details = z.object({
  city: z.enum(HOTEL_CITIES).describe('The city searched by name'),
  stars: z.number().int().min(1).max(5).optional(),
  checkInFrom: ClockTimeSchema.optional().describe(`From this local time on the first day (${DEFAULT_TIMES.checkIn} when absent)`),
  checkOutBy: ClockTimeSchema.optional().describe(`Until this local time on the last day (${DEFAULT_TIMES.checkOut} when absent)`),
  amenities: Amenities.optional().describe('"Hồ bơi", "Wifi", "Bữa sáng"…'),
  cancellation: z
    .object({
      freeUntilHours: z.number().int().min(0).max(720).describe('Free until this many hours before check-in'),
      lateFeeBp: z.number().int().min(0).max(10_000).describe('Then this share of the stay’s price, in basis points'),
    })
    .optional()
    .describe(`The guests’ cancellation policy (free until ${DEFAULT_POLICY.freeUntilHours} h before, then ${DEFAULT_POLICY.lateFeeBp / 100} % when absent)`),
  holidays: z.array(CalendarDateSchema).max(60).optional().describe('Nights priced at the room types’ holiday rate (Tết, 30/4, 2/9…)'),
});

export const hotelsCatalog = defineCatalog({
  tag: 'hotels',
  collection: HOTELS,
  basePath: '/hotels',
  noun: 'hotel',
  nouns: 'hotels',
  schemaName: 'Hotel',
  pluralName: 'Hotels',
  details,
  maxRadiusM: 30_000,
  partnerRequired: true,
  filters: z.object({
    city: z.enum(HOTEL_CITIES).optional().describe('Only hotels of this city'),
    minStars: z.coerce.number().int().min(1).max(5).optional().describe('Only hotels with at least this many stars'),
  }),
  keep: (hotel, f) => (f.city === undefined || hotel.details.city === f.city) && (f.minStars === undefined || (hotel.details.stars ?? 0) >= f.minStars),
  check(d) {
    if (d.checkInFrom && d.checkOutBy && d.checkOutBy > d.checkInFrom)
      throw new ValidationError('checkOutBy must not be after checkInFrom', [
        { field: 'body.checkOutBy', message: `must be at most checkInFrom (${d.checkInFrom}): a night ends before the next begins` },
      ]);
  },
  items: rooms,
});

export const hotels = defineCatalogVertical(hotelsCatalog, { deps: () => partnerCatalogDeps });
export const hotelRecords = hotels.service;
export const hotelRooms = hotels.items;
export type HotelDetails = z.output<typeof details>;
export type RoomTypeBody = z.output<typeof rooms.body>;
