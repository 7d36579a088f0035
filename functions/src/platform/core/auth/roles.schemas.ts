import { z } from 'zod';
import { ADMIN_PERMISSIONS, ALL_PERMISSIONS, HATS, ROLES } from './roles';

// The request and response schemas of roles, hats and permissions (OpenAPI components). Apart from roles.ts,
// which module definitions and the access-token check load at cold start without zod's classic API.
export const RoleSchema = z.enum(ROLES).meta({ id: 'Role', description: 'Identity role carried in the JWT.' });
export const HatSchema = z.enum(HATS).meta({ id: 'Hat', description: 'Client surface a user may open.' });
export const AdminPermissionSchema = z
  .enum([...ADMIN_PERMISSIONS, ALL_PERMISSIONS])
  .meta({ id: 'AdminPermission', description: '"*" grants every permission; an empty list grants none.' });
