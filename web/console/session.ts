// The signed-in administrator: the typed client (tokens in localStorage, shared by the console's tabs), the profile
// and what its permissions let it press.
import { ApiError, createSuperappClient, localStorageTokenStore, permits, unwrap, type Schemas } from '../client';
import { signal } from './state';

export type Me = Schemas['UserProfile'];

export const me = signal<Me | null>(null);
export const sessionNotice = signal<string | null>(null);

export const client = createSuperappClient({
  baseUrl: '/api/v1',
  tokens: localStorageTokenStore('superapp.admin.session'),
  onSessionEnded: () => {
    me.set(null);
    sessionNotice.set('ended');
  },
  headers: { 'accept-language': 'vi' },
});
export const api = client.api;

/** Whether the signed-in administrator may call the operation: a button it may not use is not shown. */
export function can(method: string, schemaPath: string): boolean {
  const profile = me.get();
  return profile !== null && profile.roles.includes('ADMIN') && permits(profile.permissions ?? undefined, method, schemaPath);
}

/** Loads the profile of a stored session (at start and after a sign-in); a non-administrator is signed out. */
export async function loadMe(): Promise<Me | null> {
  if (!(await client.session())) return null;
  try {
    const profile = unwrap(await api.GET('/users/me'));
    if (!profile.roles.includes('ADMIN')) {
      await client.signOut();
      sessionNotice.set('notAdmin');
      me.set(null);
      return null;
    }
    sessionNotice.set(null);
    me.set(profile);
    return profile;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
      await client.signOut();
      me.set(null);
      return null;
    }
    throw error;
  }
}

export async function signOut(allSessions = false): Promise<void> {
  await client.signOut({ allSessions });
  me.set(null);
}
