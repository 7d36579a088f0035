import { z } from 'zod';
import { DocumentIdSchema } from '../../platform/core/http/ids';
import type { AppContext } from '../../platform/core/http/module';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { ItemKeySchema } from '../../platform/kits/catalog/catalog.items.routes';
import { CalendarDateSchema } from '../../platform/kits/inventory/units.schemas';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';
import { bookingRequest, BookingSchema, proposalRoute } from '../bookings';
import { AppointmentBodySchema, APPOINTMENT_POLICY, APPOINTMENT_RULES, createMedicalAppointments } from './medical.appointments';
import { clinics } from './medical.catalog';

// The clinics' catalog routes (clinics and their doctors) and appointments: a doctor's free slots, asking for one,
// and the doctor or clinic proposing another time (its other answers are the shared /bookings moves; a doctor's own
// queue is GET /bookings/partner?vertical=MEDICAL: a clinic's staff see only the appointments assigned to them).

const SlotsSchema = z
  .object({
    clinicId: z.string(),
    doctorKey: z.string(),
    date: z.string().meta({ format: 'date' }),
    minutes: z.number().int().describe('The doctor’s appointment length'),
    slots: z.array(z.object({ startsAt: IsoTimeSchema, free: z.boolean() })),
  })
  .meta({ id: 'MedicalDoctorSlots' });

export function medicalRoutes(ctx: AppContext): AnyRoute[] {
  const appointments = createMedicalAppointments(ctx.config);
  return [
    ...clinics.routes(ctx),
    defineRoute({
      method: 'get',
      path: '/medical/clinics/:id/doctors/:doctorKey/slots',
      operationId: 'listMedicalDoctorSlots',
      tag: 'medical',
      summary: 'A doctor’s appointment slots of one day, free or taken',
      description:
        'Slots of the doctor’s appointment length within the clinic’s opening hours (07:00–17:00, Monday to Saturday, Vietnam time, when it sets none), from now on. One patient per slot; a slot is taken while a request waits for the doctor or once confirmed.',
      auth: [],
      rateLimit: { scope: 'medical-slots', limit: 120, windowSec: 600, per: 'user' },
      errors: [404],
      codes: ['MEDICAL_DOCTOR_NOT_FOUND'],
      request: {
        params: z.object({ id: DocumentIdSchema, doctorKey: ItemKeySchema }),
        query: z.object({ date: CalendarDateSchema.describe('Local day, YYYY-MM-DD') }),
      },
      response: { description: 'The day’s slots.', schema: SlotsSchema },
      handler: ({ params, query }) => appointments.slots(params.id, params.doctorKey, query.date),
    }),
    defineRoute({
      method: 'post',
      path: '/medical/appointments',
      operationId: 'requestMedicalAppointment',
      tag: 'medical',
      summary: 'Ask for an appointment with a doctor, with a symptoms note',
      description: `The slot is held and the doctor asked (PENDING_PARTNER, \`booking.medical.created\` to the patient and the clinic): the doctor or the clinic accepts (POST /bookings/{id}/accept), rejects with a reason, or proposes another time (POST /medical/appointments/{id}/propose), which the patient takes with POST /bookings/{id}/agree. The patient checks in at the desk (POST /bookings/{id}/check-in, by the clinic) and the visit completes. Within ${APPOINTMENT_RULES.maxDaysAhead} days, on the doctor’s grid inside the clinic’s hours (outside them: 422 MEDICAL_CLINIC_CLOSED); the fee is paid at the clinic; cancelled free until ${APPOINTMENT_POLICY.freeUntilHours} h before. A taken slot is 409 BOOKING_UNAVAILABLE. Idempotency-Key required.`,
      ...bookingRequest(['MEDICAL_DOCTOR_NOT_FOUND', 'MEDICAL_CLINIC_CLOSED']),
      request: { body: AppointmentBodySchema },
      response: { status: 201, description: 'The appointment request, PENDING_PARTNER.', schema: BookingSchema },
      handler: ({ body, auth, idempotencyKey, claimed }) => appointments.book(auth!, body, idempotencyKey!, { claimed: claimed! }),
    }),
    proposalRoute({
      path: '/medical/appointments/:id/propose',
      operationId: 'proposeMedicalAppointmentTime',
      tag: 'medical',
      summary: 'Doctor or clinic: answer an appointment request with another time',
      who: 'The clinic’s owner or its doctor (the staff member the appointment is assigned to)',
      closedCode: 'MEDICAL_CLINIC_CLOSED',
      run: (auth, id, body) => appointments.propose(auth, id, body),
    }),
  ];
}
