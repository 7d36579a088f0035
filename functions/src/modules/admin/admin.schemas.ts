import { z } from 'zod';
import { BooleanQuerySchema } from '../../platform/core/http/query';
import { PageQuerySchema } from '../../platform/kits/firestore/paginate';
import { DocumentIdSchema, IdParamsSchema } from '../../platform/core/http/ids';
import { HATS, ROLES } from '../../platform/core/auth/roles';
import { AdminPermissionSchema, HatSchema, RoleSchema } from '../../platform/core/auth/roles.schemas';
import { EmailSchema, PhoneSchema } from '../../platform/core/http/contact';
import { UserProfileSchema } from '../users';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';

export const AdminUserSchema = UserProfileSchema.extend({
  disabledAt: IsoTimeSchema.nullable(),
}).meta({ id: 'AdminUser', description: 'An account as administrators see it (never the password hash).' });

export const UsersListQuerySchema = PageQuerySchema.extend({
  role: RoleSchema.optional(),
  hat: HatSchema.optional(),
  disabled: BooleanQuerySchema.optional().describe('true: locked accounts only; false: active only'),
  q: z.string().trim().min(2).max(50).optional().describe('Prefix of the email, its local part, a name word or the phone'),
});

export const UsersListSchema = z
  .object({ users: z.array(AdminUserSchema), nextCursor: z.string().nullable() })
  .meta({ id: 'AdminUserList', description: 'Newest first. A page may hold fewer than `limit` when filters combine; follow nextCursor.' });

const countsOf = <T extends readonly string[]>(keys: T) =>
  z.object(Object.fromEntries(keys.map((k) => [k, z.number().int()])) as Record<T[number], z.ZodNumber>);

export const UsersOverviewSchema = z
  .object({
    total: z.number().int(),
    disabled: z.number().int(),
    byRole: countsOf(ROLES),
    byHat: countsOf(HATS),
    pendingApplications: z.object({ DRIVER: z.number().int(), PARTNER: z.number().int() }).describe('SUBMITTED or NEEDS_INFO'),
  })
  .meta({ id: 'UsersOverview' });

export const CreateUserBodySchema = z
  .object({
    hat: HatSchema.describe('App the account is made for; sets the default roles (CON: USER, PAR: +PARTNER_OWNER, DRV: +DRIVER, ADM: +ADMIN)'),
    email: EmailSchema.optional(),
    phone: PhoneSchema.optional(),
    fullName: z.string().trim().min(1).max(100).optional(),
    roles: z.array(RoleSchema).min(1).optional().describe('Instead of the default; USER is always kept; must unlock `hat`'),
  })
  .refine((b) => b.email !== undefined || b.phone !== undefined, { message: 'email or phone is required', path: ['email'] })
  .meta({ id: 'AdminCreateUserBody', description: 'The account signs in with email OTP (or phone OTP); no password is set.' });

// A whole list (roles, permissions) written from a page read earlier: with the account's `updatedAt` as read, a change
// made meanwhile by another administrator is refused instead of silently overwritten.
const ExpectedUpdatedAtSchema = z.iso
  .datetime()
  .optional()
  .describe('The account’s `updatedAt` as you read it: if it changed since, 409 USER_CHANGED (read it again) instead of overwriting that change');

export const UpdateUserBodySchema = z
  .object({
    fullName: z.string().trim().min(1).max(100).optional(),
    phone: PhoneSchema.nullable().optional().describe('null removes the phone'),
    permissions: z
      .array(AdminPermissionSchema)
      .optional()
      .describe('ADMIN accounts: ["*"] = every permission, [] = none. An administrator grants only permissions it holds (403), and never widens its own.'),
    disabled: z.boolean().optional().describe('true locks sign-in and revokes every session; false unlocks'),
    expectedUpdatedAt: ExpectedUpdatedAtSchema,
  })
  .refine(({ expectedUpdatedAt: _precondition, ...fields }) => Object.values(fields).some((v) => v !== undefined), {
    message: 'at least one field is required',
  })
  .meta({ id: 'AdminUpdateUserBody' });

export const SetRolesBodySchema = z
  .object({ roles: z.array(RoleSchema).min(1).max(ROLES.length), expectedUpdatedAt: ExpectedUpdatedAtSchema })
  .meta({ id: 'AdminSetRolesBody', description: 'The complete role list (USER is always kept). Takes effect on the next request of every session.' });

export const UserIdParamsSchema = IdParamsSchema;

export const UserSessionParamsSchema = IdParamsSchema.extend({ sessionId: DocumentIdSchema });

export const LockResultSchema = z.object({ user: AdminUserSchema, sessionsRevoked: z.number().int() }).meta({ id: 'AdminLockResult' });
