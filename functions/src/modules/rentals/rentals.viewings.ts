import { z } from 'zod';
import type { AppConfig } from '../../platform/core/config';
import { NotFoundError } from '../../platform/core/errors/app-error';
import type { Caller } from '../../platform/kits/catalog/catalog.access';
import { DEFAULT_TIME_ZONE, sameHours, WEEKDAYS, type OpeningHours } from '../../platform/kits/catalog/hours';
import { daySlots, slotWithin } from '../../platform/kits/inventory/slots';
import { bookingsService, bookingViewerOf, FREE_CANCELLATION, type BookingView } from '../bookings';
import { rentalListings } from './rentals.catalog';
import type { ClaimedRun } from '../../platform/core/http/route';

// Viewings of a listing on the booking engine: half-hour slots within the listing's viewing hours (its opening
// hours, 08:00–20:00 when it sets none), one party per slot; the landlord confirms, rejects or proposes another
// time, which the tenant agrees to (POST /bookings/{id}/agree) or lets expire. Free, nothing paid.

export const VIEWING_SLOT_MINUTES = 30;
/** A viewing is booked at most 30 days ahead and lasts one slot. */
export const VIEWING_RULES = { maxUnits: 1, maxDaysAhead: 30 } as const;
/** The viewing hours of a listing without opening hours. */
export const DEFAULT_VIEWING_HOURS = sameHours(WEEKDAYS, '08:00', '20:00');

export const ViewingBodySchema = z
  .object({
    startsAt: z.iso.datetime({ offset: true }).describe('On the half hour, e.g. `2027-03-01T09:30:00+07:00`, within the viewing hours'),
    note: z.string().trim().max(500).optional().describe('For the landlord'),
  })
  .meta({ id: 'RentalViewingBody' });

export function createRentalViewings(config: Readonly<AppConfig>, now: () => number = Date.now) {
  const zone = DEFAULT_TIME_ZONE;
  const bookings = () => bookingsService(config);

  async function openListing(id: string) {
    const [listing] = await rentalListings().activeByIds([id]);
    if (!listing || !listing.partnerId) throw new NotFoundError('No such rental listing');
    return { listing, partnerId: listing.partnerId, hours: listing.hours ?? DEFAULT_VIEWING_HOURS };
  }
  const slotAt = (startsAt: string, hours: OpeningHours, field: string) =>
    slotWithin(startsAt, {
      minutes: VIEWING_SLOT_MINUTES,
      hours,
      rules: VIEWING_RULES,
      now: now(),
      timeZone: zone,
      field,
      closedCode: 'RENTAL_VIEWING_CLOSED',
    });

  return {
    /** The half-hour slots of one local day within the viewing hours, each free or taken (past ones left out). */
    async slots(listingId: string, date: string) {
      const { hours } = await openListing(listingId);
      const slots = await daySlots(date, { minutes: VIEWING_SLOT_MINUTES, hours, now: now(), timeZone: zone }, (units) =>
        bookings().engine.available('RENTAL_VIEWING', listingId, units, () => 1),
      );
      return { listingId, date, slots };
    },

    /** A viewing asked for: the slot held and sent to the landlord (PENDING_PARTNER) at once; nothing to pay. */
    async book(caller: Caller, listingId: string, body: z.output<typeof ViewingBodySchema>, idempotencyKey: string, run: ClaimedRun): Promise<BookingView> {
      const { listing, partnerId, hours } = await openListing(listingId);
      const slot = slotAt(body.startsAt, hours, 'body.startsAt');
      const { booking } = await bookings().book(
        {
          idempotencyKey,
          vertical: 'RENTAL_VIEWING',
          consumerId: caller.userId,
          partnerId,
          resource: { id: listing.id, name: listing.name, parentId: listing.id, parentName: listing.name },
          capacityOf: () => 1,
          units: slot.units,
          qty: 1,
          timeZone: zone,
          startsAt: slot.startsAt,
          endsAt: slot.endsAt,
          priceVnd: 0,
          policy: FREE_CANCELLATION,
          details: { listingId: listing.id, address: listing.address, note: body.note ?? null },
        },
        null,
        run,
      );
      return booking;
    },

    /**
     * The landlord proposes another time for a viewing waiting for an answer: the request is REJECTED with the
     * proposal and a viewing at the new time is held for the tenant to agree to. Its landlord's people only (404).
     */
    propose(caller: Caller & { permissions?: string[] }, bookingId: string, body: { startsAt: string; note?: string }) {
      return bookings().propose(bookingViewerOf(caller), bookingId, 'RENTAL_VIEWING', async (viewing) => {
        const { hours } = await openListing(viewing.resource.id);
        return { ...slotAt(body.startsAt, hours, 'body.startsAt'), capacityOf: () => 1, note: body.note ?? null };
      });
    },
  };
}
