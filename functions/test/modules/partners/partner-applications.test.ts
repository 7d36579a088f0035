import { adminTokens, emailOtpLogin, registerVerified, type Tokens } from '../../helpers/accounts';
import { call, uniqueEmail } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { PARTNER_PAPERS, uploadAll } from '../../helpers/papers';
import { waitForMail } from '../../helpers/sinks';

beforeAll(requireEmulators);

let admin: Tokens;
beforeAll(async () => {
  admin = await adminTokens();
});

async function approvedPartner(businessType: string) {
  const owner = await registerVerified();
  const applied = await call('POST', '/partners/register', { token: owner.accessToken, body: { businessName: `Biz ${businessType}`, businessType } });
  if (applied.status !== 201) throw new Error(`partner register ${applied.status}: ${JSON.stringify(applied.body)}`);
  await uploadAll(owner.accessToken, applied.body.id, PARTNER_PAPERS);
  const approved = await call('PATCH', `/partners/admin/applications/${applied.body.id}`, { token: admin.accessToken, body: { status: 'APPROVED' } });
  if (approved.status !== 200) throw new Error(`approve ${approved.status}: ${JSON.stringify(approved.body)}`);
  return { owner, application: approved.body, partnerId: approved.body.details.partnerId as string };
}

describe('partner approval grants roles by business type', () => {
  it.each([
    ['RENTAL', ['USER', 'PARTNER_OWNER', 'LANDLORD']],
    ['landlord', ['USER', 'PARTNER_OWNER', 'LANDLORD']],
    ['MEDICAL', ['USER', 'PARTNER_OWNER', 'DOCTOR']],
    ['Doctor office', ['USER', 'PARTNER_OWNER', 'DOCTOR']],
    ['clinic', ['USER', 'PARTNER_OWNER', 'DOCTOR']],
    ['FNB', ['USER', 'PARTNER_OWNER']],
    ['Rent-a-Clinic', ['USER', 'PARTNER_OWNER', 'LANDLORD', 'DOCTOR']],
  ])('%s → %j', async (businessType, roles) => {
    const { owner, application } = await approvedPartner(businessType);
    expect(application.grantedRoles).toEqual(roles.filter((r) => r !== 'USER'));
    const me = await call('GET', '/users/me', { token: owner.accessToken });
    expect(me.body.roles).toEqual(roles);
    expect(me.body.hats).toEqual(['CON', 'PAR']);
  });

  it('the partner becomes ACTIVE with its owner as OWNER member; a second open application is 409', async () => {
    const { owner, partnerId } = await approvedPartner('FNB');
    const mine = await call('GET', '/partners/me', { token: owner.accessToken });
    expect(mine.body.partners).toEqual([expect.objectContaining({ id: partnerId, status: 'ACTIVE', myRole: 'OWNER' })]);
    const pending = await registerVerified();
    expect((await call('POST', '/partners/register', { token: pending.accessToken, body: { businessName: 'One', businessType: 'FNB' } })).status).toBe(201);
    expect((await call('POST', '/partners/register', { token: pending.accessToken, body: { businessName: 'Two', businessType: 'FNB' } })).status).toBe(409);
  });

  it('approval without papers is 409; rejection needs a reason', async () => {
    const owner = await registerVerified();
    const applied = await call('POST', '/partners/register', { token: owner.accessToken, body: { businessName: 'No papers', businessType: 'FNB' } });
    expect((await call('PATCH', `/partners/admin/applications/${applied.body.id}`, { token: admin.accessToken, body: { status: 'APPROVED' } })).status).toBe(
      409,
    );
    expect((await call('PATCH', `/partners/admin/applications/${applied.body.id}`, { token: admin.accessToken, body: { status: 'REJECTED' } })).status).toBe(
      400,
    );
    // A driver application id is not a partner application.
    const list = await call('GET', '/partners/admin/applications?status=SUBMITTED', { token: admin.accessToken });
    expect(list.body.applications.every((a: { kind: string }) => a.kind === 'PARTNER')).toBe(true);
  });
});

describe('partner staff', () => {
  it('the owner invites by email (new or existing account), staff get PARTNER_STAFF scoped to the partner, removal withdraws it', async () => {
    const { owner, partnerId } = await approvedPartner('FNB');
    const existing = await registerVerified();
    const newcomer = uniqueEmail('staff');
    const since = Date.now();
    const added = await call('POST', `/partners/${partnerId}/staff`, { token: owner.accessToken, body: { email: existing.email } });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ partnerId, userId: existing.user.id, role: 'STAFF' });
    expect((await call('POST', `/partners/${partnerId}/staff`, { token: owner.accessToken, body: { email: existing.email } })).status).toBe(409);
    expect((await call('POST', `/partners/${partnerId}/staff`, { token: owner.accessToken, body: { email: newcomer } })).status).toBe(201);
    // A new account has no language of its own yet: the default (vi); an existing one reads its own (en).
    expect((await waitForMail(newcomer, { since })).subject).toMatch(/^Bạn đã được thêm vào /);
    expect((await waitForMail(existing.email, { since })).subject).toMatch(/^You were added to /);

    // The newcomer signs in on the partner app with email OTP.
    const staff = await emailOtpLogin(newcomer, 'PAR', 'vi');
    expect(staff.user.roles).toEqual(['USER', 'PARTNER_STAFF']);
    expect((await call('GET', '/partners/me', { token: staff.accessToken })).body.partners).toEqual([
      expect.objectContaining({ id: partnerId, myRole: 'STAFF' }),
    ]);
    expect((await call('GET', '/users/me', { token: existing.accessToken })).body.hats).toEqual(['CON', 'PAR']);

    const members = await call('GET', `/partners/${partnerId}/staff`, { token: owner.accessToken });
    expect(members.body.members.map((m: { role: string }) => m.role)).toEqual(['OWNER', 'STAFF', 'STAFF']);

    expect((await call('DELETE', `/partners/${partnerId}/staff/${existing.user.id}`, { token: owner.accessToken })).status).toBe(200);
    expect((await call('GET', '/users/me', { token: existing.accessToken })).body.roles).toEqual(['USER']);
    expect((await call('DELETE', `/partners/${partnerId}/staff/${existing.user.id}`, { token: owner.accessToken })).status).toBe(404);
  });

  it("another owner cannot see or change this partner's staff (404); staff and users cannot either (403)", async () => {
    const a = await approvedPartner('FNB');
    const b = await approvedPartner('FNB');
    expect((await call('GET', `/partners/${a.partnerId}/staff`, { token: b.owner.accessToken })).status).toBe(404);
    expect((await call('POST', `/partners/${a.partnerId}/staff`, { token: b.owner.accessToken, body: { email: uniqueEmail('x') } })).status).toBe(404);
    const user = await registerVerified();
    expect((await call('GET', `/partners/${a.partnerId}/staff`, { token: user.accessToken })).status).toBe(403);
  });
});
