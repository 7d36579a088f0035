import { z } from 'zod';
import { EmailSchema, PhoneSchema } from '../../platform/core/http/contact';
import { CAPABILITIES, JOB_KINDS, VEHICLE_TYPES } from './driver.model';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';

export const CapabilitySchema = z.enum(CAPABILITIES).meta({
  id: 'DriverCapability',
  description: 'RIDE: passenger transport; COURIER: food and grocery orders; DELIVERY: parcels A to B; SCHOOL_TRIP: school pick-up.',
});

export const VehicleSchema = z
  .object({
    type: z.enum(VEHICLE_TYPES),
    plate: z.string().trim().min(2).max(20),
    model: z.string().trim().min(1).max(60).nullable().default(null),
    color: z.string().trim().min(1).max(30).nullable().default(null),
    seats: z.number().int().min(1).max(60).nullable().default(null),
  })
  .meta({ id: 'Vehicle' });

export const DriverRegisterBodySchema = z
  .object({
    email: EmailSchema,
    fullName: z.string().trim().min(1).max(100),
    phone: PhoneSchema.optional(),
    licenceNumber: z.string().trim().min(3).max(40).optional(),
    vehicle: VehicleSchema,
  })
  .meta({ id: 'DriverRegisterBody', description: 'Role fields are ignored: DRIVER comes only with an approved application.' });

export const DriverRegisterResponseSchema = z
  .object({
    mailSent: z.boolean().describe('A mail transport is configured (the code, when one is due, was handed to it)'),
    expiresInSec: z.number().int(),
    resendAfterSec: z.number().int(),
    next: z.string(),
  })
  .meta({
    id: 'DriverRegisterResponse',
    description: 'The same answer whether or not the email has an account; no ids (the application opens at sign-in with the mailed code).',
  });

export const DriverDecisionBodySchema = z
  .object({
    status: z.enum(['APPROVED', 'REJECTED', 'NEEDS_INFO']),
    reason: z.string().trim().min(1).max(500).optional().describe('Required for REJECTED and NEEDS_INFO'),
    capabilities: z.array(CapabilitySchema).min(1).optional().describe('APPROVED only; default RIDE, COURIER, DELIVERY'),
  })
  .refine((b) => b.status === 'APPROVED' || b.capabilities === undefined, { message: 'capabilities apply to an approval only', path: ['capabilities'] })
  .meta({ id: 'DriverDecisionBody' });

export const DriverProfileSchema = z
  .object({
    userId: z.string(),
    capabilities: z.array(CapabilitySchema),
    vehicle: VehicleSchema.nullable(),
    status: z.enum(['ONLINE', 'OFFLINE']),
    lastLocation: z.object({ lat: z.number(), lng: z.number(), heading: z.number().nullable(), speedKmh: z.number().nullable(), at: IsoTimeSchema }).nullable(),
    currentRideId: z.string().nullable().describe('The ride I am on, if any'),
    currentJob: z
      .object({ kind: z.enum(JOB_KINDS), id: z.string() })
      .nullable()
      .describe('The job I am on, if any: an ORDER (COURIER) or a parcel DELIVERY'),
    approvedAt: IsoTimeSchema.nullable(),
    updatedAt: IsoTimeSchema,
  })
  .meta({ id: 'DriverProfile' });

export const DriverStatusBodySchema = z.object({ status: z.enum(['ONLINE', 'OFFLINE']) }).meta({ id: 'DriverStatusBody' });
export const DriverLocationBodySchema = z
  .object({
    lat: z.number().min(-90).max(90),
    lng: z.number().min(-180).max(180),
    heading: z.number().min(0).max(360).optional(),
    speedKmh: z.number().min(0).max(300).optional(),
  })
  .meta({ id: 'DriverLocationBody' });

export const DriverLocationAckSchema = z
  .object({
    accepted: z.literal(true),
    coalesced: z.boolean().describe('true: within a second of the last written one, so not written (the next report carries the newer position)'),
    at: IsoTimeSchema,
  })
  .meta({ id: 'DriverLocationAck' });
