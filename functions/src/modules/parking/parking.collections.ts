// Collection names, apart from the schemas: the module definition (loaded at every cold start) needs only these.
// `parking_lots/{id}`: parking lots with capacity, live free spaces (the operator's gate or staff report them)
// and hourly prices per vehicle type. Booking a space belongs to bookings.
export const PARKING_LOTS = 'parking_lots';
