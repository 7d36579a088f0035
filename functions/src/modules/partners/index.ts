// Public face of the partners module. Partner-owned verticals (places, commerce, bookings) will check
// membership through a command added here; the member roles are public already.
export type { MemberRecord } from './partners.model';
