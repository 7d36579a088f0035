import type { AppContext } from '../../platform/core/http/module';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import {
  AdminUserSchema,
  CreateUserBodySchema,
  LockResultSchema,
  SetRolesBodySchema,
  UpdateUserBodySchema,
  UserIdParamsSchema,
  UsersListQuerySchema,
  UsersListSchema,
  UsersOverviewSchema,
} from './admin.schemas';
import { adminServiceFor } from './admin.wiring';

// User administration. The paths stay under /users/admin (tag users), where clients know them.
export function adminRoutes({ config }: AppContext): AnyRoute[] {
  const admin = adminServiceFor(config);
  const adminRoute = { tag: 'users' as const, auth: ['ADMIN' as const], permission: 'users.manage' as const };
  return [
    defineRoute({
      ...adminRoute,
      method: 'get',
      path: '/users/admin/overview',
      operationId: 'adminGetUsersOverview',
      summary: 'Counts by role, hat, disabled, and pending applications',
      response: { description: 'The overview.', schema: UsersOverviewSchema },
      handler: () => admin.overview(),
    }),
    defineRoute({
      ...adminRoute,
      method: 'get',
      path: '/users/admin',
      operationId: 'adminListUsers',
      summary: 'List accounts (filter by role, hat, disabled; search email, name, phone)',
      request: { query: UsersListQuerySchema },
      response: { description: 'A page of accounts.', schema: UsersListSchema },
      handler: ({ query, auth }) =>
        admin.list(auth!, { role: query.role, hat: query.hat, disabled: query.disabled, search: query.q, limit: query.limit, cursor: query.cursor }),
    }),
    defineRoute({
      ...adminRoute,
      method: 'post',
      path: '/users/admin',
      operationId: 'adminCreateUser',
      summary: 'Create an account for an app (hat)',
      errors: [409],
      codes: ['ACCOUNT_EXISTS', 'PERMISSION_REQUIRED'],
      request: { body: CreateUserBodySchema },
      response: { status: 201, description: 'The account.', schema: AdminUserSchema },
      handler: ({ body, auth }) => admin.create(auth!, body),
    }),
    defineRoute({
      ...adminRoute,
      method: 'get',
      path: '/users/admin/:id',
      operationId: 'adminGetUser',
      summary: 'One account',
      errors: [404],
      request: { params: UserIdParamsSchema },
      response: { description: 'The account.', schema: AdminUserSchema },
      handler: ({ params }) => admin.get(params.id),
    }),
    defineRoute({
      ...adminRoute,
      method: 'patch',
      path: '/users/admin/:id',
      operationId: 'adminUpdateUser',
      summary: 'Update profile, permissions or the disabled flag',
      description: 'disabled=true locks sign-in and revokes every session at once. The last active ADMIN cannot be disabled (409).',
      errors: [404, 409],
      codes: ['PHONE_TAKEN', 'LAST_ADMIN', 'PERMISSION_REQUIRED'],
      request: { params: UserIdParamsSchema, body: UpdateUserBodySchema },
      response: { description: 'The account.', schema: AdminUserSchema },
      handler: ({ params, body, auth }) => admin.update(auth!, params.id, body),
    }),
    defineRoute({
      ...adminRoute,
      method: 'patch',
      path: '/users/admin/:id/roles',
      operationId: 'adminSetUserRoles',
      summary: 'Set the roles of an account',
      description:
        'Any value outside the 7 roles is a 400. Existing tokens carry the new roles on their next request. The last active ADMIN cannot be demoted (409).',
      errors: [404, 409],
      codes: ['LAST_ADMIN', 'PERMISSION_REQUIRED'],
      request: { params: UserIdParamsSchema, body: SetRolesBodySchema },
      response: { description: 'The account.', schema: AdminUserSchema },
      handler: ({ params, body, auth }) => admin.setRoles(auth!, params.id, body.roles),
    }),
    defineRoute({
      ...adminRoute,
      method: 'delete',
      path: '/users/admin/:id',
      operationId: 'adminLockUser',
      summary: 'Lock an account (the record stays and stays listed)',
      errors: [404, 409],
      codes: ['LAST_ADMIN'],
      request: { params: UserIdParamsSchema },
      response: { description: 'Locked; sessions revoked.', schema: LockResultSchema },
      handler: ({ params, auth }) => admin.lock(auth!, params.id),
    }),
  ];
}
