import { adminTokens, registerVerified, type Tokens } from './accounts';
import { call } from './api';

export type Staff = Tokens & { email: string; password: string };

/**
 * For a test file: the full administrator (signed in before the tests) and fresh administrators narrowed to exactly
 * the permissions asked for, with tokens that carry them. After the file, the narrowed ones are USERs again (so other
 * files' admin fan-outs, SOS for one, do not grow with every run).
 */
export function withStaff() {
  let admin: Tokens | undefined;
  const made: string[] = [];
  const full = () => {
    if (!admin) throw new Error('the administrator signs in before the tests');
    return admin;
  };
  beforeAll(async () => {
    admin = await adminTokens();
  });
  afterAll(async () => {
    for (const id of made.splice(0)) await call('PATCH', `/users/admin/${id}/roles`, { token: full().accessToken, body: { roles: ['USER'] } });
  });
  async function limitedAdmin(permissions: string[], roles: string[] = ['ADMIN']): Promise<Staff> {
    const who = await registerVerified({ name: 'Staff' });
    const promoted = await call('PATCH', `/users/admin/${who.user.id}/roles`, { token: full().accessToken, body: { roles } });
    if (promoted.status !== 200) throw new Error(`roles ${promoted.status}: ${JSON.stringify(promoted.body)}`);
    const narrowed = await call('PATCH', `/users/admin/${who.user.id}`, { token: full().accessToken, body: { permissions } });
    if (JSON.stringify(narrowed.body.permissions) !== JSON.stringify(permissions))
      throw new Error(`permissions ${narrowed.status}: ${JSON.stringify(narrowed.body)}`);
    made.push(who.user.id);
    const login = await call<Tokens>('POST', '/auth/login/password', { body: { email: who.email, password: who.password } });
    return { ...who, ...login.body };
  }
  return { admin: full, limitedAdmin };
}

/** A fresh ADMIN narrowed to `permissions` by the full administrator (its tokens are those of its registration). */
export async function narrowedAdmin(permissions: string[]): Promise<Tokens> {
  const admin = await adminTokens();
  const helper = await registerVerified();
  await call('PATCH', `/users/admin/${helper.user.id}/roles`, { token: admin.accessToken, body: { roles: ['ADMIN'] } });
  const set = await call('PATCH', `/users/admin/${helper.user.id}`, { token: admin.accessToken, body: { permissions } });
  if (JSON.stringify(set.body.permissions) !== JSON.stringify(permissions)) throw new Error(`permissions not set: ${JSON.stringify(set.body)}`);
  return helper;
}
