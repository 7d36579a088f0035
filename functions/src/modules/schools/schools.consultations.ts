import { z } from 'zod';
import type { AppConfig } from '../../platform/core/config';
import { NotFoundError } from '../../platform/core/errors/app-error';
import { DocumentIdSchema } from '../../platform/core/http/ids';
import type { Caller } from '../../platform/kits/catalog/catalog.access';
import { DEFAULT_TIME_ZONE, sameHours, WORKING_DAYS, type OpeningHours } from '../../platform/kits/catalog/hours';
import { daySlots, slotWithin } from '../../platform/kits/inventory/slots';
import { bookingsService, bookingViewerOf, FREE_CANCELLATION, type BookingView } from '../bookings';
import { schoolPrograms, schoolRecords } from './schools.catalog';
import type { ClaimedRun } from '../../platform/core/http/route';

// Consultations at a school on the booking engine: slots of the school's consultation length within its hours
// (08:00–17:00 Monday to Saturday when it sets none), as many families at once as it has desks; the school confirms,
// rejects or proposes another time, meets the family (start) and completes it, then follows the family up
// (schools.follow-ups.ts). Free: nothing paid, cancelled any time.

export const CONSULTATION_RULES = { maxUnits: 1, maxDaysAhead: 45 } as const;
export const DEFAULT_SCHOOL_HOURS = sameHours(WORKING_DAYS, '08:00', '17:00');

export const ConsultationBodySchema = z
  .object({
    schoolId: DocumentIdSchema,
    programKey: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,64}$/)
      .optional()
      .describe('The program the family asks about'),
    startsAt: z.iso.datetime({ offset: true }).describe('On the school’s grid (its consultation length) within its hours'),
    childName: z.string().trim().min(1).max(80),
    childBirthYear: z.number().int().min(1950).max(2100),
    note: z.string().trim().max(1_000).optional().describe('Questions for the school'),
  })
  .meta({ id: 'SchoolConsultationBody' });

export function createSchoolConsultations(config: Readonly<AppConfig>, now: () => number = Date.now) {
  const zone = DEFAULT_TIME_ZONE;
  const bookings = () => bookingsService(config);

  async function openSchool(id: string) {
    const [school] = await schoolRecords().activeByIds([id]);
    if (!school || !school.partnerId) throw new NotFoundError('No such school');
    const desks = school.details.consultationDesks ?? 1;
    return { school, partnerId: school.partnerId, hours: school.hours ?? DEFAULT_SCHOOL_HOURS, minutes: school.details.consultationMinutes ?? 30, desks };
  }
  const slotAt = (startsAt: string, minutes: number, hours: OpeningHours) =>
    slotWithin(startsAt, { minutes, hours, rules: CONSULTATION_RULES, now: now(), timeZone: zone, field: 'body.startsAt', closedCode: 'SCHOOL_CLOSED' });

  return {
    /** A school's consultation slots of one local day, free or full (past ones left out). */
    async slots(schoolId: string, date: string) {
      const { hours, minutes, desks } = await openSchool(schoolId);
      const slots = await daySlots(date, { minutes, hours, now: now(), timeZone: zone }, (units) =>
        bookings().engine.available('SCHOOL', schoolId, units, () => desks),
      );
      return { schoolId, date, minutes, desks, slots };
    },

    /** A consultation asked for: a desk of the slot held and the school asked (PENDING_PARTNER). */
    async book(caller: Caller, body: z.output<typeof ConsultationBodySchema>, idempotencyKey: string, run: ClaimedRun): Promise<BookingView> {
      const { school, partnerId, hours, minutes, desks } = await openSchool(body.schoolId);
      const program = body.programKey ? (await schoolPrograms().read(school.id, [body.programKey])).get(body.programKey) : undefined;
      if (body.programKey && !program) throw new NotFoundError('No such program at this school').withCode('SCHOOL_PROGRAM_NOT_FOUND');
      const slot = slotAt(body.startsAt, minutes, hours);
      const { booking } = await bookings().book(
        {
          idempotencyKey,
          vertical: 'SCHOOL',
          consumerId: caller.userId,
          partnerId,
          assigneeId: null,
          resource: { id: school.id, name: program?.name ?? 'Consultation', parentId: school.id, parentName: school.name },
          capacityOf: () => desks,
          units: slot.units,
          qty: 1,
          timeZone: zone,
          startsAt: slot.startsAt,
          endsAt: slot.endsAt,
          priceVnd: 0,
          policy: FREE_CANCELLATION,
          details: {
            schoolId: school.id,
            programKey: body.programKey ?? null,
            programName: program?.name ?? null,
            childName: body.childName,
            childBirthYear: body.childBirthYear,
            note: body.note ?? null,
            address: school.address,
          },
        },
        null,
        run,
      );
      return booking;
    },

    /** The school answers a request with another time (the request REJECTED, the new slot HELD for the family). */
    propose(caller: Caller & { permissions?: string[] }, bookingId: string, body: { startsAt: string; note?: string }) {
      return bookings().propose(bookingViewerOf(caller), bookingId, 'SCHOOL', async (consultation) => {
        const { hours, minutes, desks } = await openSchool(String(consultation.details.schoolId));
        return { ...slotAt(body.startsAt, minutes, hours), capacityOf: () => desks, note: body.note ?? null };
      });
    },
  };
}
