import { z } from 'zod';
import { AdminPermissionSchema, HatSchema, RoleSchema } from '../../platform/core/auth/roles.schemas';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';
import { LocaleSchema } from '../../platform/kits/i18n/i18n.schemas';

export const UserProfileSchema = z
  .object({
    id: z.string(),
    email: z.string().nullable().describe('null only for phone-only accounts created by an administrator'),
    emailVerified: z.boolean(),
    name: z.string(),
    locale: LocaleSchema.describe(
      'Language of push, inbox, mail and SMS texts for this account: set at registration from Accept-Language, changed with PATCH /users/me; accounts that never chose one read as the default (vi unless configured)',
    ),
    phone: z.string().nullable().describe('E.164; set after phone verification'),
    phoneVerified: z.boolean(),
    roles: z.array(RoleSchema),
    hats: z.array(HatSchema).describe('Unlocked hats (see GET /users/me/hats)'),
    permissions: z.array(AdminPermissionSchema).describe('Administrator permissions (ADMIN only): ["*"] = all, [] = none'),
    status: z.enum(['PENDING', 'ACTIVE']).describe('PENDING until the REGISTER email OTP is verified'),
    disabled: z.boolean().describe('Locked by an administrator: no sign-in, sessions revoked'),
    twoFactorEnabled: z.boolean(),
    providers: z.array(z.enum(['password', 'google'])),
    hasPassword: z.boolean(),
    createdAt: IsoTimeSchema.describe('ISO 8601'),
    updatedAt: IsoTimeSchema.describe('ISO 8601'),
  })
  .meta({ id: 'UserProfile', description: 'Canonical profile of the signed-in user.' });

export const UpdateProfileBodySchema = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    locale: LocaleSchema.optional().describe(
      'vi or en: the language of the texts the server writes for you (anything else: 400 VALIDATION_FAILED on body.locale)',
    ),
  })
  .refine((b) => b.name !== undefined || b.locale !== undefined, { message: 'name or locale is required' })
  .meta({ id: 'UpdateProfileBody' });

export const HatsResponseSchema = z
  .object({
    hats: z.array(z.object({ hat: HatSchema, unlocked: z.boolean() })),
    unlocked: z.array(HatSchema),
  })
  .meta({
    id: 'UserHats',
    description:
      'CON needs USER and no DRIVER role (the driver hat is exclusive); PAR needs PARTNER_OWNER, PARTNER_STAFF, LANDLORD or DOCTOR; DRV needs DRIVER; ADM needs ADMIN.',
  });
