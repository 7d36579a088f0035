import { z } from 'zod';
import { LatLngBodySchema } from '../../platform/kits/geo/geo';
import { PhoneSchema } from '../../platform/core/http/contact';
import { ADDRESS_LABELS } from './addresses.model';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';

const fields = {
  label: z.enum(ADDRESS_LABELS).describe('One HOME and one WORK at most'),
  title: z.string().trim().min(1).max(60).describe('Your name for it: "Nhà mẹ", "Gym"'),
  address: z.string().trim().min(3).max(300).describe('The address line as shown'),
  location: LatLngBodySchema,
  driverNote: z.string().trim().min(1).max(300).describe('For the driver: "cổng sau, gọi khi tới"'),
  contactName: z.string().trim().min(1).max(80),
  contactPhone: PhoneSchema,
};

export const AddressBodySchema = z
  .object({
    label: fields.label,
    title: fields.title.optional(),
    address: fields.address,
    location: fields.location,
    driverNote: fields.driverNote.optional(),
    contactName: fields.contactName.optional(),
    contactPhone: fields.contactPhone.optional(),
    isDefault: z.boolean().optional().describe('Make it the default (the first address always is)'),
  })
  .meta({ id: 'AddressBody' });

export const AddressPatchSchema = z
  .object({
    label: fields.label.optional(),
    title: fields.title.nullable().optional(),
    address: fields.address.optional(),
    location: fields.location.optional(),
    driverNote: fields.driverNote.nullable().optional(),
    contactName: fields.contactName.nullable().optional(),
    contactPhone: fields.contactPhone.nullable().optional(),
  })
  .refine((p) => Object.values(p).some((v) => v !== undefined), { message: 'name at least one field to change' })
  .meta({ id: 'AddressPatch', description: 'null clears an optional field; POST /addresses/{id}/default changes the default' });

export const AddressSchema = z
  .object({
    id: z.string(),
    label: z.enum(ADDRESS_LABELS),
    title: z.string().nullable(),
    address: z.string(),
    location: z.object({ lat: z.number(), lng: z.number() }),
    driverNote: z.string().nullable(),
    contactName: z.string().nullable(),
    contactPhone: z.string().nullable(),
    isDefault: z.boolean(),
    createdAt: IsoTimeSchema,
    updatedAt: IsoTimeSchema,
  })
  .meta({ id: 'Address' });
