import { z } from 'zod';
import { defineCatalog, defineCatalogItems } from '../../platform/kits/catalog/catalog.spec';
import { defineCatalogVertical } from '../../platform/kits/catalog/catalog.vertical';
import { priceRange } from '../../platform/kits/money/money.schemas';
import { partnerCatalogDeps } from '../partners';
import { MEDICAL_CLINICS, MEDICAL_DOCTORS } from './medical.collections';

// Clinics on the map (the catalog kit) and, under each, its doctors (the kit's child items): specialty, the visit's
// fee (paid at the clinic), the appointment length, and the account of the doctor (a member of the clinic's partner)
// who sees their own appointments. Appointments are booked in medical.appointments.ts on the booking engine.

export { MEDICAL_CLINICS, MEDICAL_DOCTORS };

export const SPECIALTIES = [
  'GENERAL',
  'INTERNAL',
  'PEDIATRICS',
  'OBSTETRICS',
  'DENTISTRY',
  'DERMATOLOGY',
  'CARDIOLOGY',
  'OPHTHALMOLOGY',
  'ENT',
  'ORTHOPEDICS',
  'NEUROLOGY',
  'PSYCHIATRY',
] as const;
export const APPOINTMENT_MINUTES = [15, 20, 30, 60] as const;

const doctors = defineCatalogItems({
  collection: MEDICAL_DOCTORS,
  segment: 'doctors',
  parentField: 'clinicId',
  keyField: 'doctorKey',
  noun: 'doctor',
  nouns: 'doctors',
  parentNoun: 'clinic',
  parentNouns: 'clinics',
  schemaName: 'MedicalDoctor',
  pluralName: 'MedicalDoctors',
  putNote: 'specialty, fee and appointment length',
  photos: true,
  maxPerRecord: 100,
  body: z.object({
    name: z.string().trim().min(2).max(80).describe('"BS. Nguyễn Văn An"'),
    title: z.string().trim().max(80).optional().describe('"Thạc sĩ, Bác sĩ CKI"'),
    specialty: z.enum(SPECIALTIES),
    yearsOfPractice: z.number().int().min(0).max(70).optional(),
    feeVnd: priceRange(0, 50_000_000).describe('The visit’s fee, paid at the clinic'),
    appointmentMinutes: z.union(APPOINTMENT_MINUTES.map((m) => z.literal(m))).describe('The length of one appointment (the slots’ grid)'),
    userId: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .describe('The doctor’s own account, a staff member of the clinic: they see (and answer) the appointments made with them; the clinic’s owner sees all'),
  }),
  view: z.object({
    name: z.string(),
    title: z.string().optional(),
    specialty: z.enum(SPECIALTIES),
    yearsOfPractice: z.number().int().optional(),
    feeVnd: z.number().int(),
    appointmentMinutes: z.number().int(),
    photos: z.array(z.object({ id: z.string(), url: z.string() })).optional(),
  }),
});

export const clinicsCatalog = defineCatalog({
  tag: 'medical',
  collection: MEDICAL_CLINICS,
  basePath: '/medical/clinics',
  noun: 'clinic',
  nouns: 'clinics',
  schemaName: 'MedicalClinic',
  pluralName: 'MedicalClinics',
  details: z.object({
    specialties: z.array(z.enum(SPECIALTIES)).min(1).max(12).describe('What it treats (its doctors’ specialties)'),
    insuranceAccepted: z.boolean().optional().describe('Takes the national health insurance (BHYT)'),
    licenceNo: z.string().trim().min(3).max(40).optional(),
  }),
  maxRadiusM: 20_000,
  partnerRequired: true,
  filters: z.object({ specialty: z.enum(SPECIALTIES).optional().describe('Only clinics treating this') }),
  keep: (clinic, f) => f.specialty === undefined || clinic.details.specialties.includes(f.specialty),
  items: doctors,
});

export const clinics = defineCatalogVertical(clinicsCatalog, { deps: () => partnerCatalogDeps });
export const clinicRecords = clinics.service;
export const clinicDoctors = clinics.items;
export type DoctorBody = z.output<typeof doctors.body>;
