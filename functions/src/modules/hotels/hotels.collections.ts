// Collection names, apart from the schemas: the module definition (loaded at every cold start) needs only these.
/** `hotels/{id}`: hotels on the map (a catalog of the platform kit) with their city, stars, check-in times and policy. */
export const HOTELS = 'hotels';
/** `hotel_rooms/{hotelId}_{roomTypeId}`: a hotel's room types: how many rooms, guests, beds and nightly rates. */
export const HOTEL_ROOMS = 'hotel_rooms';
