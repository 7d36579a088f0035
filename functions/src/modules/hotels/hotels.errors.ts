import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The hotels module's error codes (code: [the status it comes with, what it means]).
export const HOTELS_ERROR_CODES = defineErrorCodes({
  HOTEL_ROOM_NOT_FOUND: [404, 'No such room type in this hotel (a hotel that is hidden, archived or unknown is a plain 404).'],
  HOTEL_TOO_MANY_GUESTS: [422, 'More guests than the rooms asked for hold (`details.maxGuests` per room).'],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof HOTELS_ERROR_CODES> {}
}
