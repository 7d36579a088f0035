import { registerVerified, type Tokens } from './accounts';
import { call } from './api';

export type Staff = Tokens & { email: string; password: string };

/**
 * Fresh administrators narrowed to exactly the permissions asked for, made by `admin` (one holding `*`), with a
 * token that carries them. `demoteAll` gives the accounts back their USER role (so other files' admin fan-outs, SOS
 * for one, do not grow with every run).
 */
export function staffMaker(admin: () => Tokens) {
  const made: string[] = [];
  return {
    async limitedAdmin(permissions: string[], roles: string[] = ['ADMIN']): Promise<Staff> {
      const who = await registerVerified({ name: 'Staff' });
      const promoted = await call('PATCH', `/users/admin/${who.user.id}/roles`, { token: admin().accessToken, body: { roles } });
      if (promoted.status !== 200) throw new Error(`roles ${promoted.status}: ${JSON.stringify(promoted.body)}`);
      const narrowed = await call('PATCH', `/users/admin/${who.user.id}`, { token: admin().accessToken, body: { permissions } });
      if (JSON.stringify(narrowed.body.permissions) !== JSON.stringify(permissions)) throw new Error(`permissions ${narrowed.status}: ${JSON.stringify(narrowed.body)}`);
      made.push(who.user.id);
      const login = await call<Tokens>('POST', '/auth/login/password', { body: { email: who.email, password: who.password } });
      return { ...who, ...login.body };
    },
    async demoteAll(): Promise<void> {
      for (const id of made.splice(0)) await call('PATCH', `/users/admin/${id}/roles`, { token: admin().accessToken, body: { roles: ['USER'] } });
    },
  };
}
