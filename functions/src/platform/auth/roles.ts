import { z } from 'zod';

// The spec's 7 roles; no other value exists.
export const ROLES = ['USER', 'DRIVER', 'PARTNER_OWNER', 'PARTNER_STAFF', 'LANDLORD', 'DOCTOR', 'ADMIN'] as const;
export type Role = (typeof ROLES)[number];
export const RoleSchema = z.enum(ROLES).meta({ id: 'Role', description: 'Identity role carried in the JWT.' });

export const HATS = ['CON', 'PAR', 'DRV', 'ADM'] as const;
export type Hat = (typeof HATS)[number];
export const HatSchema = z.enum(HATS).meta({ id: 'Hat', description: 'Client surface a user may open.' });

// Fine-grained grants for administrators. An ADMIN without a list holds all of them; a list restricts.
export const ADMIN_PERMISSIONS = ['users.manage', 'applications.review', 'kyc.read'] as const;
export type AdminPermission = (typeof ADMIN_PERMISSIONS)[number];
export const AdminPermissionSchema = z.enum(ADMIN_PERMISSIONS).meta({ id: 'AdminPermission' });
