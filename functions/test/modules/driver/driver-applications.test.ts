import { adminTokens, registerVerified, signUpByMail, type Tokens } from '../../helpers/accounts';
import { call, uniqueEmail } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { DRIVER_PAPERS, uploadAll } from '../../helpers/papers';
import { mailedCode } from '../../helpers/sinks';
import { db } from '../../../src/platform/core/firebase/firebase';
import { geohashOf } from '../../../src/platform/kits/geo/geo';
import { DRIVER_LOCATIONS } from '../../../src/modules/driver/driver.collections';

beforeAll(requireEmulators);

const VEHICLE = { type: 'MOTORBIKE', plate: '59X1-123.45', model: 'Honda Wave', color: 'red' };

// /driver/register (no auth) mails a sign-in code; the driver app signs in with it.
async function registerDriver(email = uniqueEmail('driver')) {
  const since = Date.now();
  const reg = await call('POST', '/driver/register', { body: { email, fullName: 'Minh Driver', phone: '0901 234 567', vehicle: VEHICLE, roles: ['DRIVER'] } });
  if (reg.status !== 200) throw new Error(`driver register ${reg.status}: ${JSON.stringify(reg.body)}`);
  const code = await mailedCode(email, { since, subject: 'Finish your driver registration' });
  const login = await call<Tokens>('POST', '/auth/email/otp/verify', { body: { email, code, purpose: 'LOGIN', surface: 'DRV' } });
  if (login.status !== 200) throw new Error(`driver login ${login.status}`);
  // The sign-in with the mailed code opened the application.
  const mine = await call('GET', '/kyc/applications', { token: login.body.accessToken });
  const application = mine.body.applications.find((a: { kind: string }) => a.kind === 'DRIVER');
  if (!application) throw new Error('no driver application after the sign-in');
  return { email, applicationId: application.id as string, registration: reg.body, tokens: login.body };
}

let admin: Tokens;
beforeAll(async () => {
  admin = await adminTokens();
});
const decide = (id: string, body: unknown, token = admin.accessToken) => call('PATCH', `/driver/admin/applications/${id}`, { token, body });

describe('driver registration and review', () => {
  it('creates the account, mails a code whose sign-in opens a SUBMITTED application; role fields are ignored', async () => {
    const driver = await registerDriver();
    expect(driver.registration).toEqual({ mailSent: true, expiresInSec: 600, resendAfterSec: 60, next: expect.any(String) });
    expect(driver.tokens.user.roles).toEqual(['USER']);
    const mine = await call('GET', '/kyc/applications', { token: driver.tokens.accessToken });
    expect(mine.body.applications[0]).toMatchObject({
      id: driver.applicationId,
      kind: 'DRIVER',
      status: 'SUBMITTED',
      missingPapers: ['IDENTITY', 'DRIVER_LICENCE', 'VEHICLE_REGISTRATION'],
    });
    expect(mine.body.applications[0].details.vehicle).toMatchObject({ type: 'MOTORBIKE', plate: '59X1-123.45' });
    // The phone as typed (0901 234 567) is kept in E.164; what is no number is refused before anything is sent.
    expect(mine.body.applications[0].details.phone).toBe('+84901234567');
    const refused = await call('POST', '/driver/register', {
      body: { email: uniqueEmail('driver'), fullName: 'Minh Driver', phone: '+12345678', vehicle: VEHICLE },
    });
    expect(refused).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', details: [{ field: 'body.phone' }] } });
  });

  it('attaches nothing to an existing account until its owner signs in with the mailed code; the answer reveals nothing', async () => {
    // Signed up by mail: REGISTER's resend gap is per purpose, so LOGIN codes to this mailbox are free to go at once.
    const user = await signUpByMail();
    const fresh = uniqueEmail('new-driver');
    const since = Date.now();
    const forExisting = await call('POST', '/driver/register', { body: { email: user.email, fullName: 'Someone Else', vehicle: VEHICLE } });
    const forNew = await call('POST', '/driver/register', { body: { email: fresh, fullName: 'Someone Else', vehicle: VEHICLE } });
    expect(forExisting.status).toBe(200);
    expect(forExisting.body).toEqual(forNew.body);
    expect(JSON.stringify(forExisting.body)).not.toMatch(/applicationId|SUBMITTED/);
    // Nothing attached yet, not even after a password sign-in (that does not prove the mail was read).
    expect((await call('GET', '/kyc/applications', { token: user.accessToken })).body.applications).toEqual([]);
    const password = await call<Tokens>('POST', '/auth/login/password', { body: { email: user.email, password: user.password } });
    expect((await call('GET', '/kyc/applications', { token: password.body.accessToken })).body.applications).toEqual([]);
    // A repeat within the resend gap sends and records nothing, and answers the same.
    expect((await call('POST', '/driver/register', { body: { email: user.email, fullName: 'Again', vehicle: VEHICLE } })).body).toEqual(forNew.body);
    // The mailbox owner signs in with the code: the application opens, once.
    const code = await mailedCode(user.email, { since, subject: 'Finish your driver registration' });
    const login = await call<Tokens>('POST', '/auth/email/otp/verify', { body: { email: user.email, code, purpose: 'LOGIN', surface: 'DRV' } });
    expect(login.status).toBe(200);
    const mine = (await call('GET', '/kyc/applications', { token: login.body.accessToken })).body.applications;
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ kind: 'DRIVER', status: 'SUBMITTED', details: { fullName: 'Someone Else' } });
  });

  it('parallel registrations of one email and a repeated sign-in open exactly one application', async () => {
    const email = uniqueEmail('racing-driver');
    const since = Date.now();
    const answers = await Promise.all([1, 2, 3].map(() => call('POST', '/driver/register', { body: { email, fullName: 'Race', vehicle: VEHICLE } })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const code = await mailedCode(email, { since, subject: 'Finish your driver registration' });
    const login = await call<Tokens>('POST', '/auth/email/otp/verify', { body: { email, code, purpose: 'LOGIN', surface: 'DRV' } });
    expect(login.status).toBe(200);
    // The code is spent: a replayed verify is refused and opens nothing more.
    expect((await call('POST', '/auth/email/otp/verify', { body: { email, code, purpose: 'LOGIN', surface: 'DRV' } })).status).toBe(400);
    const mine = (await call('GET', '/kyc/applications', { token: login.body.accessToken })).body.applications;
    expect(mine.filter((a: { kind: string }) => a.kind === 'DRIVER')).toHaveLength(1);
  });

  it('approval needs complete papers (409), then grants DRIVER with the default capabilities; hats follow at once', async () => {
    const driver = await registerDriver();
    const early = await decide(driver.applicationId, { status: 'APPROVED' });
    expect(early.status).toBe(409);
    expect(early.body.details.missingPapers).toEqual(['IDENTITY', 'DRIVER_LICENCE', 'VEHICLE_REGISTRATION']);
    await uploadAll(driver.tokens.accessToken, driver.applicationId, DRIVER_PAPERS);
    expect((await call('GET', '/driver/me', { token: driver.tokens.accessToken })).status).toBe(403);

    const approved = await decide(driver.applicationId, { status: 'APPROVED' });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'APPROVED', grantedRoles: ['DRIVER'], missingPapers: [], reviewedBy: admin.user.id });
    // The same token now carries DRIVER: roles are read on every request.
    const profile = await call('GET', '/driver/me', { token: driver.tokens.accessToken });
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({ capabilities: ['RIDE', 'COURIER', 'DELIVERY'], status: 'OFFLINE', vehicle: { plate: '59X1-123.45' } });
    const hats = await call('GET', '/users/me/hats', { token: driver.tokens.accessToken });
    expect(hats.body.unlocked).toEqual(['DRV']);
  });

  it('approval with explicit capabilities sets exactly those; unknown flags are 400', async () => {
    const driver = await registerDriver();
    await uploadAll(driver.tokens.accessToken, driver.applicationId, DRIVER_PAPERS);
    expect((await decide(driver.applicationId, { status: 'APPROVED', capabilities: ['RIDE', 'FLYING'] })).status).toBe(400);
    expect((await decide(driver.applicationId, { status: 'APPROVED', capabilities: ['RIDE', 'SCHOOL_TRIP'] })).status).toBe(200);
    expect((await call('GET', '/driver/me', { token: driver.tokens.accessToken })).body.capabilities).toEqual(['RIDE', 'SCHOOL_TRIP']);
  });

  it('allows only legal transitions (409 otherwise) and needs a reason to reject or send back', async () => {
    const driver = await registerDriver();
    expect((await decide(driver.applicationId, { status: 'NEEDS_INFO' })).status).toBe(400);
    expect((await decide(driver.applicationId, { status: 'NEEDS_INFO', reason: 'Licence photo is blurry' })).body.status).toBe('NEEDS_INFO');
    // An admin cannot approve from NEEDS_INFO; the applicant resubmits first.
    expect((await decide(driver.applicationId, { status: 'APPROVED' })).status).toBe(409);
    expect((await decide(driver.applicationId, { status: 'NEEDS_INFO', reason: 'again' })).status).toBe(409);
    expect((await call('POST', `/kyc/applications/${driver.applicationId}/resubmit`, { token: admin.accessToken })).status).toBe(404);
    const resubmitted = await call('POST', `/kyc/applications/${driver.applicationId}/resubmit`, { token: driver.tokens.accessToken });
    expect(resubmitted.body.status).toBe('SUBMITTED');
    expect((await call('POST', `/kyc/applications/${driver.applicationId}/resubmit`, { token: driver.tokens.accessToken })).status).toBe(409);
    const rejected = await decide(driver.applicationId, { status: 'REJECTED', reason: 'Vehicle too old' });
    expect(rejected.body).toMatchObject({ status: 'REJECTED', reason: 'Vehicle too old' });
    expect(rejected.body.history.map((h: { status: string }) => h.status)).toEqual(['SUBMITTED', 'NEEDS_INFO', 'SUBMITTED', 'REJECTED']);
    for (const status of ['APPROVED', 'NEEDS_INFO', 'REJECTED']) {
      expect((await decide(driver.applicationId, { status, reason: 'x' })).status).toBe(409);
    }
    // Rejected: papers are frozen, roles unchanged.
    expect((await call('GET', '/users/me', { token: driver.tokens.accessToken })).body.roles).toEqual(['USER']);
  });

  it('capabilities only go with an approval (400)', async () => {
    const driver = await registerDriver();
    expect((await decide(driver.applicationId, { status: 'REJECTED', reason: 'no', capabilities: ['RIDE'] })).status).toBe(400);
  });

  it('lists applications by status for admins; 404 for an unknown id', async () => {
    const driver = await registerDriver();
    const list = await call('GET', '/driver/admin/applications?status=SUBMITTED&limit=100', { token: admin.accessToken });
    expect(list.status).toBe(200);
    expect(list.body.applications.every((a: { status: string; kind: string }) => a.status === 'SUBMITTED' && a.kind === 'DRIVER')).toBe(true);
    expect(list.body.applications.some((a: { id: string }) => a.id === driver.applicationId)).toBe(true);
    expect((await call('GET', `/driver/admin/applications/${driver.applicationId}`, { token: admin.accessToken })).body.id).toBe(driver.applicationId);
    expect((await call('GET', '/driver/admin/applications/nope', { token: admin.accessToken })).status).toBe(404);
  });
});

describe('the driver profile', () => {
  it('goes online, reports its location, and is DRIVER-only', async () => {
    const driver = await registerDriver();
    await uploadAll(driver.tokens.accessToken, driver.applicationId, DRIVER_PAPERS);
    await decide(driver.applicationId, { status: 'APPROVED' });
    const token = driver.tokens.accessToken;
    expect((await call('PATCH', '/driver/me/status', { token, body: { status: 'ONLINE' } })).body.status).toBe('ONLINE');
    // Writes go by clock second: start early in one so that both reports below fall in it, and try again when a loaded
    // machine let the pair straddle two seconds (the API shares this clock).
    for (let attempt = 1; ; attempt++) {
      // A retry starts in a second no report has touched yet.
      if (attempt > 1) await new Promise((r) => setTimeout(r, 1_005 - (Date.now() % 1000)));
      while (Date.now() % 1000 > 300) await new Promise((r) => setTimeout(r, 20));
      const started = Date.now();
      const located = await call('POST', '/driver/me/location', { token, body: { lat: 10.7769, lng: 106.7009, heading: 90 } });
      expect(located.body).toMatchObject({ accepted: true, coalesced: false });
      const again = await call('POST', '/driver/me/location', { token, body: { lat: 10.78, lng: 106.71 } });
      if (Math.floor(started / 1000) !== Math.floor(Date.now() / 1000) && attempt < 5) continue;
      // A second report within the second is coalesced: answered, not written.
      expect(again.body.coalesced).toBe(true);
      break;
    }
    const me = (await call('GET', '/driver/me', { token })).body;
    expect(me.lastLocation).toMatchObject({ lat: 10.7769, lng: 106.7009, heading: 90, speedKmh: null });
    expect((await call('POST', '/driver/me/location', { token, body: { lat: 91, lng: 0 } })).status).toBe(400);
    // The geohash (platform/kits/geo) is stored with the position in the driver's location document, for radius queries.
    const stored = (await db().collection(DRIVER_LOCATIONS).doc(me.userId).get()).data();
    expect(stored).toMatchObject({ geohash: geohashOf({ lat: 10.7769, lng: 106.7009 }), status: 'ONLINE' });
    const user = await registerVerified();
    expect((await call('PATCH', '/driver/me/status', { token: user.accessToken, body: { status: 'ONLINE' } })).status).toBe(403);
  });
});
