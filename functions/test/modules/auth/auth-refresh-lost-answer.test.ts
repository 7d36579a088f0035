import { createJwtAccessTokenVerifier } from '../../../src/platform/core/auth/access-token';
import { createSessionAwareVerifier, createSessionService } from '../../../src/modules/auth/session.service';
import { createTokenSigner } from '../../../src/modules/auth/tokens';
import { accounts } from '../../../src/modules/users';
import { signUpByMail } from '../../helpers/accounts';
import { requireEmulators } from '../../helpers/emulators';

// A refresh whose answer never reached the client must not cost the session (within REFRESH_LOST_ANSWER_SEC); a
// late retry gets a fresh pair and retires the unused one, so a thief holding the same token is found out; a replay
// of the previous refresh token once the new pair was used (past the racing-retry grace), or of any older one, still
// revokes the session. The session service and the request verifier run here with an injected clock.
beforeAll(requireEmulators);

const ACCESS_SECRET = 'lost-answer-access-secret-0123456789abcdef';
const REFRESH_SECRET = 'lost-answer-refresh-secret-0123456789abcdef';
const CLIENT = { ip: '198.51.100.7', userAgent: 'test', surface: null, deviceName: 'phone' };

function harness() {
  let clock = Date.now();
  const now = () => clock;
  const signer = createTokenSigner({ accessSecret: ACCESS_SECRET, refreshSecret: REFRESH_SECRET, accessTtlSec: 900, refreshTtlSec: 30 * 24 * 3600 });
  const sessions = createSessionService({ signer, now });
  const verify = createSessionAwareVerifier(createJwtAccessTokenVerifier(ACCESS_SECRET), now);
  return {
    sessions,
    verify,
    advance: (ms: number) => (clock += ms),
    async signIn() {
      const account = await signUpByMail();
      const user = await accounts.get(account.user.id);
      return sessions.start(user!, 'password', CLIENT);
    },
  };
}

describe('a refresh whose answer was lost', () => {
  it('a racing retry within the grace gets the same pair; a retry 30 s later gets a fresh pair and the session lives on', async () => {
    const h = harness();
    const signedIn = await h.signIn();
    const lost = await h.sessions.refresh(signedIn.refreshToken, CLIENT); // the answer never arrives
    h.advance(2_000);
    const racing = await h.sessions.refresh(signedIn.refreshToken, CLIENT);
    expect(racing.refreshToken).toBe(lost.refreshToken);
    h.advance(30_000);
    await expect(h.verify(signedIn.accessToken)).resolves.toMatchObject({ sessionId: signedIn.session.id });
    const retry = await h.sessions.refresh(signedIn.refreshToken, CLIENT);
    expect(retry.refreshToken).not.toBe(lost.refreshToken);
    expect(retry.accessToken).not.toBe(lost.accessToken);
    expect(retry.expiresIn).toBe(900);
    // The lost pair is retired: its access token is refused.
    await expect(h.verify(lost.accessToken)).rejects.toMatchObject({ code: 'TOKEN_REVOKED' });
    h.advance(60_000);
    // Still unused a minute later: the old access token still works, and another lost answer costs nothing either.
    await expect(h.verify(signedIn.accessToken)).resolves.toBeDefined();
    const again = await h.sessions.refresh(signedIn.refreshToken, CLIENT);
    // The first use of the new pair retires the old one.
    await expect(h.verify(again.accessToken)).resolves.toBeDefined();
    await expect(h.verify(signedIn.accessToken)).rejects.toMatchObject({ code: 'TOKEN_REVOKED' });
    // The session lives on: the new refresh token rotates as usual.
    h.advance(60_000);
    const next = await h.sessions.refresh(again.refreshToken, CLIENT);
    await expect(h.verify(next.accessToken)).resolves.toBeDefined();
  });

  it('a thief who refreshes first and never uses the pair is found out once both holders act', async () => {
    const h = harness();
    const victim = await h.signIn();
    const thief = await h.sessions.refresh(victim.refreshToken, CLIENT); // the thief keeps A2/R2 unused
    h.advance(30_000);
    const victimPair = await h.sessions.refresh(victim.refreshToken, CLIENT); // taken for a lost answer: a fresh pair
    expect(victimPair.refreshToken).not.toBe(thief.refreshToken);
    await expect(h.verify(thief.accessToken)).rejects.toMatchObject({ code: 'TOKEN_REVOKED' });
    await expect(h.verify(victimPair.accessToken)).resolves.toBeDefined();
    // The thief's retired refresh token revokes the session, the victim's pair with it.
    await expect(h.sessions.refresh(thief.refreshToken, CLIENT)).rejects.toMatchObject({ code: 'REFRESH_TOKEN_REUSED' });
    await expect(h.verify(victimPair.accessToken)).rejects.toMatchObject({ code: 'TOKEN_REVOKED' });
    await expect(h.sessions.refresh(victimPair.refreshToken, CLIENT)).rejects.toMatchObject({ statusCode: 401 });
  });

  it('a thief who retries the stolen token after the victim is found out when the victim next refreshes', async () => {
    const h = harness();
    const victim = await h.signIn();
    await h.sessions.refresh(victim.refreshToken, CLIENT);
    h.advance(30_000);
    const victimPair = await h.sessions.refresh(victim.refreshToken, CLIENT);
    h.advance(30_000);
    const thiefPair = await h.sessions.refresh(victim.refreshToken, CLIENT); // the thief again: the victim's pair is retired
    await expect(h.sessions.refresh(victimPair.refreshToken, CLIENT)).rejects.toMatchObject({ code: 'REFRESH_TOKEN_REUSED' });
    await expect(h.verify(thiefPair.accessToken)).rejects.toMatchObject({ code: 'TOKEN_REVOKED' });
  });

  it('a retry past REFRESH_LOST_ANSWER_SEC revokes the session (the client signs in again)', async () => {
    const h = harness();
    const signedIn = await h.signIn();
    const lost = await h.sessions.refresh(signedIn.refreshToken, CLIENT);
    h.advance(900_000);
    await expect(h.sessions.refresh(signedIn.refreshToken, CLIENT)).rejects.toMatchObject({ code: 'REFRESH_TOKEN_REUSED' });
    await expect(h.sessions.refresh(lost.refreshToken, CLIENT)).rejects.toMatchObject({ statusCode: 401 });
  });

  it('the allowance is counted from the first rotation, not from each fresh pair', async () => {
    const h = harness();
    const signedIn = await h.signIn();
    await h.sessions.refresh(signedIn.refreshToken, CLIENT);
    h.advance(600_000);
    await h.sessions.refresh(signedIn.refreshToken, CLIENT);
    h.advance(300_000);
    await expect(h.sessions.refresh(signedIn.refreshToken, CLIENT)).rejects.toMatchObject({ code: 'REFRESH_TOKEN_REUSED' });
  });

  it('a replay of the previous refresh token after the new pair was used revokes the session', async () => {
    const h = harness();
    const signedIn = await h.signIn();
    const fresh = await h.sessions.refresh(signedIn.refreshToken, CLIENT);
    await h.verify(fresh.accessToken); // the new pair is used
    h.advance(30_000);
    await expect(h.sessions.refresh(signedIn.refreshToken, CLIENT)).rejects.toMatchObject({ code: 'REFRESH_TOKEN_REUSED' });
    await expect(h.verify(fresh.accessToken)).rejects.toMatchObject({ code: 'TOKEN_REVOKED' });
    await expect(h.sessions.refresh(fresh.refreshToken, CLIENT)).rejects.toMatchObject({ statusCode: 401 });
  });

  it('a replay of the previous refresh token after the new refresh token was used revokes the session', async () => {
    const h = harness();
    const signedIn = await h.signIn();
    const gen1 = await h.sessions.refresh(signedIn.refreshToken, CLIENT);
    h.advance(1_000);
    const gen2 = await h.sessions.refresh(gen1.refreshToken, CLIENT); // gen1 is used by this refresh
    h.advance(30_000);
    // gen1's refresh token is gen2's parent and gen2 is unused: a lost answer of gen2, honoured with a fresh pair.
    const gen3 = await h.sessions.refresh(gen1.refreshToken, CLIENT);
    expect(gen3.refreshToken).not.toBe(gen2.refreshToken);
    // The token before it is older: a stolen token's replay.
    await expect(h.sessions.refresh(signedIn.refreshToken, CLIENT)).rejects.toMatchObject({ code: 'REFRESH_TOKEN_REUSED' });
    await expect(h.verify(gen3.accessToken)).rejects.toMatchObject({ code: 'TOKEN_REVOKED' });
  });

  it('a thief who refreshes first is found out when the victim replays after the thief used the new pair', async () => {
    const h = harness();
    const victim = await h.signIn();
    const thief = await h.sessions.refresh(victim.refreshToken, CLIENT);
    await h.verify(thief.accessToken);
    // The victim's access token is revoked by the thief's use; its refresh revokes the whole session.
    await expect(h.verify(victim.accessToken)).rejects.toMatchObject({ code: 'TOKEN_REVOKED' });
    h.advance(15_000);
    await expect(h.sessions.refresh(victim.refreshToken, CLIENT)).rejects.toMatchObject({ code: 'REFRESH_TOKEN_REUSED' });
    await expect(h.verify(thief.accessToken)).rejects.toMatchObject({ code: 'TOKEN_REVOKED' });
  });
});
