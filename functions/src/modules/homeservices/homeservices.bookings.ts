import { z } from 'zod';
import type { AppConfig } from '../../platform/core/config';
import { NotFoundError, UnprocessableError } from '../../platform/core/errors/app-error';
import { DocumentIdSchema } from '../../platform/core/http/ids';
import type { Caller } from '../../platform/kits/catalog/catalog.access';
import { DEFAULT_TIME_ZONE, sameHours, WEEKDAYS } from '../../platform/kits/catalog/hours';
import { distanceMeters, LatLngSchema } from '../../platform/kits/geo/geo';
import { openThroughout, slotStartsOfDay } from '../../platform/kits/inventory/slots';
import { hoursOf } from '../../platform/kits/inventory/units';
import { rangeProblemError } from '../../platform/kits/inventory/units.schemas';
import { iso } from '../../platform/kits/time/time';
import { BookingPaymentBodySchema, bookingsService, bookingViewerOf, type Booked, type BookingView, type PayBy } from '../bookings';
import { attachableImage } from '../media';
import { providerRecords, providerServices } from './homeservices.catalog';
import type { ClaimedRun } from '../../platform/core/http/route';

// A home service booked on the booking engine: a window of whole hours at the consumer's address, within the
// provider's coverage and working hours (07:00–20:00 every day when it sets none), as many visits at once as it has
// teams; a deposit (the vertical's 30%) paid through the app secures the request, the provider accepts it and assigns
// a technician, starts and completes the visit with photos; the rest is paid at the door.

export const VISIT_RULES = { maxUnits: 12, maxDaysAhead: 30 } as const;
/** Free until 12 hours before, then the deposit is kept (30% of the price: all of what was paid). */
export const VISIT_POLICY = { freeUntilHours: 12, lateFeeBp: 3_000 } as const;
export const MAX_COMPLETION_PHOTOS = 10;
export const DEFAULT_WORKING_HOURS = sameHours(WEEKDAYS, '07:00', '20:00');
const HOUR_MS = 3_600_000;
const HourSchema = z.iso.datetime({ offset: true }).describe('On a whole hour of Vietnam time, e.g. `2027-03-01T09:00:00+07:00`');

export const VisitBodySchema = z
  .object({
    providerId: DocumentIdSchema,
    serviceKey: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/),
    startsAt: HourSchema,
    hours: z.number().int().min(1).max(VISIT_RULES.maxUnits).describe('Within the service’s minHours–maxHours'),
    address: LatLngSchema.extend({ text: z.string().trim().min(5).max(300).describe('Street, ward, district: where the team goes') }),
    note: z.string().trim().max(1_000).optional().describe('For the team (gate code, the unit’s model…)'),
    payment: BookingPaymentBodySchema,
  })
  .meta({ id: 'HomeServiceBookingBody' });

export const CompletionBodySchema = z
  .object({
    photos: z
      .array(DocumentIdSchema)
      .min(1)
      .max(MAX_COMPLETION_PHOTOS)
      .refine((ids) => new Set(ids).size === ids.length, 'photos repeat')
      .describe('Media ids of the caller’s image uploads: the work done'),
    note: z.string().trim().max(1_000).optional(),
  })
  .meta({ id: 'HomeServiceCompletionBody' });

export function createHomeServiceBookings(config: Readonly<AppConfig>, now: () => number = Date.now) {
  const zone = DEFAULT_TIME_ZONE;
  const bookings = () => bookingsService(config);

  async function openProvider(id: string) {
    const [provider] = await providerRecords().activeByIds([id]);
    if (!provider || !provider.partnerId) throw new NotFoundError('No such home-service provider');
    return { provider, partnerId: provider.partnerId, hours: provider.hours ?? DEFAULT_WORKING_HOURS, teams: provider.details.teams ?? 1 };
  }
  const hourKeys = (from: number, count: number, field: string, rules: { maxUnits: number; maxDaysAhead: number } = VISIT_RULES) => {
    const r = hoursOf(from, from + count * HOUR_MS, rules, now(), zone);
    if ('problem' in r) throw rangeProblemError(r, { from: field, to: 'body.hours' });
    return r.units;
  };

  return {
    /** The hours of a local day a visit may start in, each with the teams left (past and closed hours left out). */
    async availability(providerId: string, date: string) {
      const { hours, teams } = await openProvider(providerId);
      const starts = slotStartsOfDay(date, 60, hours, now(), zone);
      if (starts.length === 0) return { providerId, date, teams, hours: [] };
      const keys = hourKeys(starts[0], (starts.at(-1)! - starts[0]) / HOUR_MS + 1, 'query.date', { ...VISIT_RULES, maxUnits: 24 });
      const left = await bookings().engine.available('HOME_SERVICE', providerId, keys, () => teams);
      const teamsLeft = (at: number) => left[(at - starts[0]) / HOUR_MS].available;
      return { providerId, date, teams, hours: starts.map((at) => ({ startsAt: iso(at), teamsLeft: teamsLeft(at) })) };
    },

    /** A visit asked for: its hours held and the deposit paid; the provider then answers (PENDING_PARTNER). */
    async book(caller: Caller, body: z.output<typeof VisitBodySchema>, clientIp: string | undefined, idempotencyKey: string, run: ClaimedRun): Promise<Booked> {
      const { provider, partnerId, hours, teams } = await openProvider(body.providerId);
      const service = (await providerServices().read(provider.id, [body.serviceKey])).get(body.serviceKey);
      if (!service) throw new NotFoundError('No such service at this provider').withCode('HOME_SERVICE_NOT_FOUND');
      if (body.hours < service.minHours || body.hours > service.maxHours)
        throw new UnprocessableError('This service takes another number of hours', { minHours: service.minHours, maxHours: service.maxHours }).withCode(
          'HOME_SERVICE_HOURS',
        );
      const distanceM = Math.round(distanceMeters(body.address, provider));
      if (distanceM > provider.details.coverageRadiusM)
        throw new UnprocessableError('The provider does not serve this address', { distanceM, coverageRadiusM: provider.details.coverageRadiusM }).withCode(
          'HOME_SERVICE_OUT_OF_AREA',
        );
      const startsAt = Date.parse(body.startsAt);
      const units = hourKeys(startsAt, body.hours, 'body.startsAt');
      if (!openThroughout(hours, startsAt, body.hours * 60))
        throw new UnprocessableError('Outside the provider’s working hours', { startsAt: body.startsAt }).withCode('HOME_SERVICE_CLOSED');
      const by: PayBy = { method: body.payment.method, provider: body.payment.provider, clientIp };
      return bookings().book(
        {
          idempotencyKey,
          vertical: 'HOME_SERVICE',
          consumerId: caller.userId,
          partnerId,
          assigneeId: null,
          resource: { id: provider.id, name: service.name, parentId: provider.id, parentName: provider.name },
          capacityOf: () => teams,
          units,
          qty: 1,
          timeZone: zone,
          startsAt,
          endsAt: startsAt + body.hours * HOUR_MS,
          priceVnd: service.pricePerHourVnd * body.hours,
          policy: VISIT_POLICY,
          details: {
            providerId: provider.id,
            serviceKey: body.serviceKey,
            category: service.category,
            pricePerHourVnd: service.pricePerHourVnd,
            hours: body.hours,
            address: { text: body.address.text, lat: body.address.lat, lng: body.address.lng },
            note: body.note ?? null,
          },
        },
        by,
        run,
      );
    },

    /** The provider names the technician (one of its people) who goes; the consumer reads their name. */
    assign(caller: Caller & { permissions?: string[] }, bookingId: string, body: { userId: string; name?: string }): Promise<BookingView> {
      return bookings().assign(bookingViewerOf(caller), bookingId, { userId: body.userId, name: body.name ?? null });
    },

    /** Done, with photos of the work (the caller's own image uploads). */
    async complete(caller: Caller & { permissions?: string[] }, bookingId: string, body: z.output<typeof CompletionBodySchema>): Promise<BookingView> {
      const photos = await Promise.all(
        body.photos.map(async (id) => {
          const photo = await attachableImage(caller.userId, id);
          if (!photo) throw new UnprocessableError('Not one of your image uploads', { mediaId: id }).withCode('HOME_SERVICE_PHOTO_INVALID');
          return { id: photo.id, url: photo.url };
        }),
      );
      return bookings().complete(bookingViewerOf(caller), bookingId, {
        vertical: 'HOME_SERVICE',
        details: { completionPhotos: photos, completionNote: body.note ?? null },
      });
    },
  };
}
