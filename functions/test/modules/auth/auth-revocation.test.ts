import { collection, doc, getDoc, getDocs, query, setLogLevel, where } from 'firebase/firestore';
import { adminTokens, signUpByMail, type Tokens } from '../../helpers/accounts';
import { call, PASSWORD } from '../../helpers/api';
import { deleteAll } from '../../helpers/cleanup';
import { requireEmulators } from '../../helpers/emulators';
import { signedInClient } from '../../helpers/firebase-client';
import { mailedCode } from '../../helpers/sinks';
import { authAdmin, db } from '../../../src/platform/core/firebase/firebase';
import { revokeUserSessions } from '../../../src/modules/auth/session.service';
import { authRepo } from '../../../src/modules/auth/auth.repo';
import { INBOX, PREFERENCES, PUSH_TOKENS } from '../../../src/modules/notifications/notifications.collections';
import { AUTH_SESSIONS } from '../../../src/modules/auth/auth.model';

// Firebase sign-ins (the realtime listeners) end with the API session: logout, lock, password reset and
// refresh-token reuse. Through the stack as the apps use it.
beforeAll(requireEmulators);
setLogLevel('error');

let admin: Tokens;
beforeAll(async () => {
  admin = await adminTokens();
});

// A Firebase client signed in with the custom token of `tokens`' session, as the app does.
async function listener(tokens: Tokens) {
  const minted = await call('POST', '/auth/firebase-token', { token: tokens.accessToken });
  expect(minted.status).toBe(200);
  const client = await signedInClient(minted.body.token, 'revocation');
  expect((await client.signedIn.user.getIdTokenResult()).claims.sid).toBe(tokens.session.id);
  const readInbox = () => getDocs(query(collection(client.firestore, INBOX), where('recipientId', '==', tokens.user.id)));
  return { ...client, readInbox };
}

const denied = (p: Promise<unknown>) => expect(p).rejects.toMatchObject({ code: 'permission-denied' });

describe('a Firebase client ends with its API session', () => {
  it('logout: the same client is denied at once, while another live session of the account still reads', async () => {
    const account = await signUpByMail();
    const second = await call<Tokens>('POST', '/auth/login/password', { body: { email: account.email, password: PASSWORD } });
    const first = await listener(account);
    try {
      await first.readInbox();
      expect((await call('POST', '/auth/logout', { token: account.accessToken })).status).toBe(200);
      await denied(first.readInbox());
      await denied(getDoc(doc(first.firestore, PREFERENCES, account.user.id)));
      const other = await listener(second.body);
      await other.readInbox();
      await other.close();
    } finally {
      await first.close();
    }
  });

  it('an administrator lock: the client is denied, the Firebase user is disabled and its refresh tokens revoked; unlocking enables it', async () => {
    const account = await signUpByMail();
    const client = await listener(account);
    try {
      await client.readInbox();
      const before = await authAdmin().getUser(account.user.id);
      await new Promise((r) => setTimeout(r, 1100)); // tokensValidAfterTime has one-second resolution
      expect((await call('DELETE', `/users/admin/${account.user.id}`, { token: admin.accessToken })).status).toBe(200);
      await denied(client.readInbox());
      const after = await authAdmin().getUser(account.user.id);
      expect(after.disabled).toBe(true);
      expect(Date.parse(after.tokensValidAfterTime!)).toBeGreaterThan(Date.parse(before.tokensValidAfterTime ?? '1970-01-01T00:00:00Z'));
      await call('PATCH', `/users/admin/${account.user.id}`, { token: admin.accessToken, body: { disabled: false } });
      expect((await authAdmin().getUser(account.user.id)).disabled).toBe(false);
    } finally {
      await client.close();
    }
  });

  it('a password reset: every older session and its client end, in the same write as the new password', async () => {
    const account = await signUpByMail();
    const client = await listener(account);
    try {
      await client.readInbox();
      const since = Date.now();
      await call('POST', '/auth/password/forgot', { body: { email: account.email } });
      const code = await mailedCode(account.email, { since, subject: 'Reset your password' });
      expect((await call('POST', '/auth/password/reset', { body: { email: account.email, code, newPassword: 'a brand new password' } })).status).toBe(200);
      await denied(client.readInbox());
      expect((await call('GET', '/users/me', { token: account.accessToken })).status).toBe(401);
      // Even if marking the session documents had not happened (a crash right after the reset), the
      // account's `sessionsValidAfter` alone ends them: un-revoke the document and try again.
      await db().collection(AUTH_SESSIONS).doc(account.session.id).update({ revokedAt: null, revokeReason: null });
      expect((await call('GET', '/users/me', { token: account.accessToken })).status).toBe(401);
      expect((await call('POST', '/auth/refresh', { body: { refreshToken: account.refreshToken } })).status).toBe(401);
      await denied(client.readInbox());
      const fresh = await call<Tokens>('POST', '/auth/login/password', { body: { email: account.email, password: 'a brand new password' } });
      expect((await call('GET', '/users/me', { token: fresh.body.accessToken })).status).toBe(200);
    } finally {
      await client.close();
    }
  });

  it('refresh-token reuse: the session ends, its push tokens are removed and its client is denied', async () => {
    const account = await signUpByMail();
    const pushToken = `fcm-reuse-${Date.now()}-${'t'.repeat(40)}`;
    expect(
      (await call('POST', '/push-tokens', { token: account.accessToken, body: { token: pushToken, surface: 'CON', platform: 'android', deviceId: 'p' } }))
        .status,
    ).toBe(200);
    const client = await listener(account);
    try {
      await client.readInbox();
      const rotated = await call('POST', '/auth/refresh', { body: { refreshToken: account.refreshToken } });
      expect(rotated.status).toBe(200);
      // The new pair is used: the old refresh token loses its lost-answer allowance.
      expect((await call('GET', '/users/me', { token: rotated.body.accessToken })).status).toBe(200);
      await new Promise((r) => setTimeout(r, 11_000)); // past the 10 s grace for a retried parent
      expect((await call('POST', '/auth/refresh', { body: { refreshToken: account.refreshToken } })).status).toBe(401);
      await denied(client.readInbox());
      const tokens = await db().collection(PUSH_TOKENS).where('userId', '==', account.user.id).get();
      expect(tokens.docs.map((d) => d.get('token'))).not.toContain(pushToken);
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe('racing sign-outs', () => {
  it('two logouts of one session at once both answer 200; one of them ended it, and it keeps that reason', async () => {
    const account = await signUpByMail();
    const raced = await Promise.all([1, 2].map(() => call('POST', '/auth/logout', { token: account.accessToken, body: {} })));
    expect(raced.map((r) => r.status)).toEqual([200, 200]);
    // A logout whose token check passed before the other's write answers 0; one that came after is refused as revoked.
    expect(raced.map((r) => r.body.revoked).sort()).toEqual([0, 1]);
    const session = (await db().collection(AUTH_SESSIONS).doc(account.session.id).get()).data()!;
    expect(session.revokeReason).toBe('logout');
    expect((await call('GET', '/users/me', { token: account.accessToken })).body.code).toBe('TOKEN_REVOKED');
  });
});

describe('sessions beyond one batch', () => {
  it('revoking more than 500 sessions revokes them all', async () => {
    const account = await signUpByMail();
    const now = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < 620; i += 500) {
      const batch = db().batch();
      for (let k = i; k < Math.min(620, i + 500); k += 1) {
        const id = `many-${account.user.id}-${k}`;
        ids.push(id);
        batch.set(db().collection(AUTH_SESSIONS).doc(id), {
          userId: account.user.id,
          revokedAt: null,
          createdAt: now,
          lastUsedAt: now,
          refresh: { exp: Math.floor(now / 1000) + 3600 },
        });
      }
      await batch.commit();
    }
    try {
      expect(await revokeUserSessions(account.user.id, 'test', Date.now())).toBe(621);
      const live = (await authRepo.sessionsOf(account.user.id)).filter((s) => s.revokedAt === null);
      expect(live).toEqual([]);
    } finally {
      // Every sign-in queries this collection: the 620 go (test/helpers/cleanup.ts says why).
      await deleteAll(ids.map((id) => db().collection(AUTH_SESSIONS).doc(id)));
    }
  });
});
