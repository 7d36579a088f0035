import { z } from 'zod';
import { DocumentIdSchema } from '../../platform/core/http/ids';
import { EmailSchema } from '../../platform/core/http/contact';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';

export const PartnerRegisterBodySchema = z
  .object({
    businessName: z.string().trim().min(2).max(120),
    businessType: z
      .string()
      .trim()
      .min(2)
      .max(60)
      .describe(
        'Free text such as FNB, RENTAL, LANDLORD, MEDICAL, CLINIC. Approval grants PARTNER_OWNER, plus LANDLORD when it contains RENT or LANDLORD, plus DOCTOR when it contains MED, DOCTOR or CLINIC (any case).',
      ),
    address: z.string().trim().min(3).max(300).optional(),
  })
  .meta({ id: 'PartnerRegisterBody' });

export const PartnerSchema = z
  .object({
    id: z.string(),
    businessName: z.string(),
    businessType: z.string(),
    address: z.string().nullable(),
    status: z.enum(['PENDING', 'ACTIVE']),
    applicationId: z.string(),
    myRole: z.enum(['OWNER', 'STAFF']).nullable(),
    createdAt: IsoTimeSchema,
    approvedAt: IsoTimeSchema.nullable(),
  })
  .meta({ id: 'Partner' });

export const PartnerMemberSchema = z
  .object({
    partnerId: z.string(),
    userId: z.string(),
    role: z.enum(['OWNER', 'STAFF']),
    email: z.string().nullable(),
    addedBy: z.string(),
    createdAt: IsoTimeSchema,
  })
  .meta({ id: 'PartnerMember' });

export const PartnerDecisionBodySchema = z
  .object({
    status: z.enum(['APPROVED', 'REJECTED', 'NEEDS_INFO']),
    reason: z.string().trim().min(1).max(500).optional().describe('Required for REJECTED and NEEDS_INFO'),
  })
  .meta({ id: 'PartnerDecisionBody' });

export const AddStaffBodySchema = z.object({ email: EmailSchema }).meta({ id: 'AddStaffBody' });
export const PartnerIdParamsSchema = z.object({ partnerId: DocumentIdSchema });
export const StaffParamsSchema = PartnerIdParamsSchema.extend({ userId: DocumentIdSchema });
