import { z } from 'zod';

// The spec's 7 roles; no other value exists.
export const ROLES = ['USER', 'DRIVER', 'PARTNER_OWNER', 'PARTNER_STAFF', 'LANDLORD', 'DOCTOR', 'ADMIN'] as const;
export type Role = (typeof ROLES)[number];
export const RoleSchema = z.enum(ROLES).meta({ id: 'Role', description: 'Identity role carried in the JWT.' });

export const HATS = ['CON', 'PAR', 'DRV', 'ADM'] as const;
export type Hat = (typeof HATS)[number];
export const HatSchema = z.enum(HATS).meta({ id: 'Hat', description: 'Client surface a user may open.' });
