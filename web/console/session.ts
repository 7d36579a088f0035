// The signed-in administrator: the typed client (tokens in localStorage, shared by the console's tabs), the profile
// and what its permissions let it press.
import { ApiError, createSuperappClient, localStorageTokenStore, permits, unwrap, type Schemas } from '../client';
import { lang } from './i18n';
import { signal } from './state';

export type Me = Schemas['UserProfile'];

export const me = signal<Me | null>(null);
export const sessionNotice = signal<string | null>(null);

const SESSION_KEY = 'superapp.admin.session';

export const client = createSuperappClient({
  baseUrl: '/api/v1',
  tokens: localStorageTokenStore(SESSION_KEY),
  onSessionEnded: () => {
    me.set(null);
    sessionNotice.set('ended');
  },
  // The API's messages (shown in errors) in the console's language.
  headers: () => ({ 'accept-language': lang.get() }),
});
export const api = client.api;

// Another tab signed out or signed in (perhaps as someone else): this tab follows. A refresh there changes only the
// tokens of the same account, and needs nothing here.
addEventListener('storage', (event) => {
  if (event.key !== null && event.key !== SESSION_KEY) return;
  // key null: the whole storage was cleared.
  if (event.key === null || !event.newValue) return me.set(null);
  const account = (raw: string | null) => (raw ? (JSON.parse(raw) as { accessToken?: string }).accessToken?.split('.')[1] : undefined);
  const subject = (raw: string | null) => {
    try {
      const payload = account(raw);
      return payload ? (JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { sub?: string }).sub : undefined;
    } catch {
      return undefined;
    }
  };
  // Someone else now: the page reloads (nothing of the previous administrator's stays on screen).
  if (me.get() !== null && subject(event.newValue) !== me.get()?.id) location.reload();
  else if (me.get() === null) void loadMe().catch(() => undefined);
});

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
