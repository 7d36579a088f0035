import type { AppContext } from '../../platform/core/http/module';
import { defineRoute, type AnyRoute, type OperationNames } from '../../platform/core/http/route';
import { HatsResponseSchema, UpdateProfileBodySchema, UserProfileSchema } from './users.schemas';
import { createUsersService } from './users.service';

export function usersRoutes(_ctx: AppContext): AnyRoute[] {
  const users = createUsersService();
  const profile = (path: string, names: OperationNames, tag: 'users' | 'auth', summary: string): AnyRoute =>
    defineRoute({
      method: 'get',
      path,
      ...names,
      tag,
      summary,
      auth: [],
      response: { description: 'The profile (never the password hash).', schema: UserProfileSchema },
      handler: ({ auth }) => users.profile(auth!.userId),
    });
  return [
    profile('/users/me', { operationId: 'getMyProfile' }, 'users', 'My profile'),
    profile('/auth/me', { operationId: 'getMyProfileAlias', aliasOf: 'getMyProfile' }, 'auth', 'My profile (alias of GET /users/me)'),
    defineRoute({
      method: 'patch',
      path: '/users/me',
      operationId: 'updateMyProfile',
      tag: 'users',
      summary: 'Update my profile',
      description: 'Email changes are not offered; a phone is attached through POST /auth/otp/send with purpose VERIFY_PHONE.',
      auth: [],
      request: { body: UpdateProfileBodySchema },
      response: { description: 'The updated profile.', schema: UserProfileSchema },
      handler: ({ auth, body }) => users.updateProfile(auth!.userId, body),
    }),
    defineRoute({
      method: 'get',
      path: '/users/me/hats',
      operationId: 'listMyHats',
      tag: 'users',
      summary: 'Which apps (hats) I may open',
      auth: [],
      response: { description: 'Every hat with its state.', schema: HatsResponseSchema },
      handler: ({ auth }) => users.hats(auth!.userId),
    }),
  ];
}
