import { z } from 'zod';
import { PageQuerySchema } from '../../platform/kits/firestore/paginate';
import { DocumentIdSchema } from '../../platform/core/http/ids';
import { RoleSchema } from '../../platform/core/auth/roles.schemas';
import { APPLICATION_KINDS, APPLICATION_STATUSES, PAPER_KINDS } from './applications.model';
import { PAPER_CONTENT_TYPES } from './kyc.service';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';

export const PaperKindSchema = z.enum(PAPER_KINDS).meta({ id: 'PaperKind' });
export const ApplicationStatusSchema = z.enum(APPLICATION_STATUSES).meta({
  id: 'ApplicationStatus',
  description: 'SUBMITTED → APPROVED | REJECTED | NEEDS_INFO (admin); NEEDS_INFO → SUBMITTED (applicant) | REJECTED (admin). Other moves: 409.',
});

export const PaperSchema = z
  .object({
    id: z.string(),
    applicationId: z.string(),
    kind: PaperKindSchema,
    contentType: z.enum(PAPER_CONTENT_TYPES),
    sizeBytes: z.number().int(),
    filename: z.string(),
    sha256: z.string(),
    createdAt: IsoTimeSchema,
  })
  .meta({ id: 'KycPaper', description: 'A paper (image or PDF). Its file is readable by the owner and administrators only.' });

export const ApplicationSchema = z
  .object({
    id: z.string(),
    kind: z.enum(APPLICATION_KINDS),
    userId: z.string(),
    status: ApplicationStatusSchema,
    details: z
      .record(z.string(), z.unknown())
      .describe('Driver: fullName, phone, licenceNumber, vehicle, capabilities. Partner: partnerId, businessName, businessType, address.'),
    reason: z.string().nullable().describe('Reason of the last rejection or information request'),
    grantedRoles: z.array(RoleSchema),
    papers: z.array(PaperSchema),
    missingPapers: z.array(PaperKindSchema).describe('Required kinds not yet uploaded; approval needs none missing'),
    history: z.array(z.object({ status: ApplicationStatusSchema, at: IsoTimeSchema, by: z.string(), reason: z.string().nullable() })),
    reviewedBy: z.string().nullable(),
    reviewedAt: IsoTimeSchema.nullable(),
    createdAt: IsoTimeSchema,
    updatedAt: IsoTimeSchema,
  })
  .meta({ id: 'Application' });

export const ApplicationListSchema = z.object({ applications: z.array(ApplicationSchema), nextCursor: z.string().nullable() }).meta({ id: 'ApplicationList' });

export const ApplicationListQuerySchema = PageQuerySchema.extend({
  status: ApplicationStatusSchema.optional(),
});

export const UploadPaperFormSchema = z
  .object({
    applicationId: DocumentIdSchema,
    kind: PaperKindSchema,
    file: z
      .string()
      .meta({ format: 'binary' })
      .describe(`${PAPER_CONTENT_TYPES.join(', ')}; the type is read from the bytes and must match the declared one`),
  })
  .meta({ id: 'UploadPaperForm' });
export const UploadPaperFieldsSchema = UploadPaperFormSchema.omit({ file: true });
