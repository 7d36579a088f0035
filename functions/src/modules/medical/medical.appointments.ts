import { z } from 'zod';
import type { AppConfig } from '../../platform/core/config';
import { NotFoundError } from '../../platform/core/errors/app-error';
import { DocumentIdSchema } from '../../platform/core/http/ids';
import type { Caller } from '../../platform/kits/catalog/catalog.access';
import { DEFAULT_TIME_ZONE, sameHours, WORKING_DAYS, type OpeningHours } from '../../platform/kits/catalog/hours';
import { daySlots, slotWithin } from '../../platform/kits/inventory/slots';
import { bookingsService, bookingViewerOf, type BookingView } from '../bookings';
import { partnerRoleOf } from '../partners';
import { clinicDoctors } from './medical.catalog';
import type { ClaimedRun } from '../../platform/core/http/route';

// Appointments with a clinic's doctors on the booking engine: slots of the doctor's appointment length within the
// clinic's opening hours (07:00–17:00 when it sets none), one patient each; the doctor (or the clinic) confirms,
// rejects or proposes another time; the patient checks in at the desk and the visit completes. Paid at the clinic.
// The clinic's staff see only the appointments assigned to them (bookings.service's rule); its owner sees all.

/** An appointment within 60 days; cancelled free until 2 hours before (nothing is paid through the app). */
export const APPOINTMENT_RULES = { maxUnits: 1, maxDaysAhead: 60 } as const;
export const APPOINTMENT_POLICY = { freeUntilHours: 2, lateFeeBp: 0 } as const;
export const DEFAULT_CLINIC_HOURS = sameHours(WORKING_DAYS, '07:00', '17:00');

export const AppointmentBodySchema = z
  .object({
    clinicId: DocumentIdSchema,
    doctorKey: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/),
    startsAt: z.iso.datetime({ offset: true }).describe('On the doctor’s grid (their appointment length) within the clinic’s hours'),
    symptoms: z.string().trim().min(1).max(1_000).describe('What brings the patient: for the doctor only'),
    patientName: z.string().trim().min(1).max(80).optional().describe('When the appointment is for someone else (a child, a parent)'),
  })
  .meta({ id: 'MedicalAppointmentBody' });

export function createMedicalAppointments(config: Readonly<AppConfig>, now: () => number = Date.now) {
  const zone = DEFAULT_TIME_ZONE;
  const bookings = () => bookingsService(config);

  async function doctorAt(clinicId: string, doctorKey: string) {
    // The clinic and the doctor in one read.
    const { record: clinic, items } = await clinicDoctors().activeWithItems(clinicId, [doctorKey]);
    if (!clinic || !clinic.partnerId) throw new NotFoundError('No such clinic');
    const doctor = items.get(doctorKey);
    if (!doctor) throw new NotFoundError('No such doctor at this clinic').withCode('MEDICAL_DOCTOR_NOT_FOUND');
    return {
      clinic,
      partnerId: clinic.partnerId,
      doctor,
      hours: clinic.hours ?? DEFAULT_CLINIC_HOURS,
      resourceId: `${clinicId}:${doctorKey.replaceAll('_', ':')}`,
    };
  }
  const slotAt = (startsAt: string, minutes: number, hours: OpeningHours) =>
    slotWithin(startsAt, { minutes, hours, rules: APPOINTMENT_RULES, now: now(), timeZone: zone, field: 'body.startsAt', closedCode: 'MEDICAL_CLINIC_CLOSED' });

  return {
    /** A doctor's slots of one local day within the clinic's hours, free or taken (past ones left out). */
    async slots(clinicId: string, doctorKey: string, date: string) {
      const { doctor, hours, resourceId } = await doctorAt(clinicId, doctorKey);
      const slots = await daySlots(date, { minutes: doctor.appointmentMinutes, hours, now: now(), timeZone: zone }, (units) =>
        bookings().engine.available('MEDICAL', resourceId, units, () => 1),
      );
      return { clinicId, doctorKey, date, minutes: doctor.appointmentMinutes, slots };
    },

    /** An appointment asked for: the slot held and the doctor asked (PENDING_PARTNER); the fee is paid at the clinic. */
    async book(caller: Caller, body: z.output<typeof AppointmentBodySchema>, idempotencyKey: string, run: ClaimedRun): Promise<BookingView> {
      const { clinic, partnerId, doctor, hours, resourceId } = await doctorAt(body.clinicId, body.doctorKey);
      const slot = slotAt(body.startsAt, doctor.appointmentMinutes, hours);
      // The doctor's own account sees it among theirs when it belongs to the clinic (anyone else named sees nothing).
      const assigneeId = doctor.userId && (await partnerRoleOf(partnerId, doctor.userId)) ? doctor.userId : null;
      const { booking } = await bookings().book(
        {
          idempotencyKey,
          vertical: 'MEDICAL',
          consumerId: caller.userId,
          partnerId,
          assigneeId,
          resource: { id: resourceId, name: doctor.name, parentId: clinic.id, parentName: clinic.name },
          capacityOf: () => 1,
          units: slot.units,
          qty: 1,
          timeZone: zone,
          startsAt: slot.startsAt,
          endsAt: slot.endsAt,
          priceVnd: doctor.feeVnd,
          policy: APPOINTMENT_POLICY,
          details: {
            clinicId: clinic.id,
            doctorKey: body.doctorKey,
            specialty: doctor.specialty,
            symptoms: body.symptoms,
            patientName: body.patientName ?? null,
            address: clinic.address,
          },
        },
        null,
        run,
      );
      return booking;
    },

    /** The doctor or the clinic answers a request with another time (the request REJECTED, the new slot HELD for the patient). */
    propose(caller: Caller & { permissions?: string[] }, bookingId: string, body: { startsAt: string; note?: string }) {
      return bookings().propose(bookingViewerOf(caller), bookingId, 'MEDICAL', async (appointment) => {
        const clinicId = String(appointment.details.clinicId);
        const { doctor, hours } = await doctorAt(clinicId, String(appointment.details.doctorKey));
        return { ...slotAt(body.startsAt, doctor.appointmentMinutes, hours), capacityOf: () => 1, note: body.note ?? null };
      });
    },
  };
}
