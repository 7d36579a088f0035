import { adminTokens, registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';

// Tests of whole-database facts (how many accounts, how many administrators). They run after the parallel
// files, one at a time (the `serial` jest project), so no other test's accounts move the numbers under them.
beforeAll(requireEmulators);

let admin: Tokens;
beforeAll(async () => {
  admin = await adminTokens();
});

describe('overview', () => {
  it('overview counts roles, hats, disabled accounts and pending applications', async () => {
    const res = await call('GET', '/users/admin/overview', { token: admin.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.total).toBeGreaterThan(2);
    expect(res.body.byRole.ADMIN).toBeGreaterThanOrEqual(1);
    // One more consumer and one locked account move exactly the matching counters.
    const fresh = await registerVerified();
    await call('DELETE', `/users/admin/${fresh.user.id}`, { token: admin.accessToken });
    const after = (await call('GET', '/users/admin/overview', { token: admin.accessToken })).body;
    expect(after.total - res.body.total).toBe(1);
    expect(after.byRole.USER - res.body.byRole.USER).toBe(1);
    expect(after.byHat.CON - res.body.byHat.CON).toBe(1);
    expect(after.byRole.ADMIN).toBe(res.body.byRole.ADMIN);
    expect(after.disabled - res.body.disabled).toBe(1);
    expect(Object.keys(res.body.byHat)).toEqual(['CON', 'PAR', 'DRV', 'ADM']);
    expect(res.body.pendingApplications).toEqual({ DRIVER: expect.any(Number), PARTNER: expect.any(Number) });
  });
});

describe('the last ADMIN', () => {
  it('cannot be demoted or locked; once another admin exists it can', async () => {
    // Leave exactly one active admin: demote every other one, every page of them (restored at the end).
    const others: string[] = [];
    for (let cursor = ''; ;) {
      const page = (
        await call('GET', `/users/admin?role=ADMIN&disabled=false&limit=100${cursor && `&cursor=${encodeURIComponent(cursor)}`}`, { token: admin.accessToken })
      ).body;
      others.push(...page.users.map((u: { id: string }) => u.id).filter((id: string) => id !== admin.user.id));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    for (const id of others) await call('PATCH', `/users/admin/${id}/roles`, { token: admin.accessToken, body: { roles: ['USER'] } });
    try {
      expect((await call('PATCH', `/users/admin/${admin.user.id}/roles`, { token: admin.accessToken, body: { roles: ['USER'] } })).status).toBe(409);
      expect((await call('DELETE', `/users/admin/${admin.user.id}`, { token: admin.accessToken })).status).toBe(409);
      expect((await call('PATCH', `/users/admin/${admin.user.id}`, { token: admin.accessToken, body: { disabled: true } })).status).toBe(409);
      expect((await call('GET', '/users/me', { token: admin.accessToken })).body.roles).toContain('ADMIN');

      const second = await registerVerified();
      await call('PATCH', `/users/admin/${second.user.id}/roles`, { token: admin.accessToken, body: { roles: ['ADMIN'] } });
      const demoted = await call('PATCH', `/users/admin/${second.user.id}/roles`, { token: admin.accessToken, body: { roles: ['USER'] } });
      expect(demoted.status).toBe(200);
    } finally {
      for (const id of others) await call('PATCH', `/users/admin/${id}/roles`, { token: admin.accessToken, body: { roles: ['ADMIN'] } });
    }
  });
});
