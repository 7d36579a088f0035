import { randomUUID } from 'node:crypto';
import { adminTokens, registerVerified, type Tokens } from '../../helpers/accounts';
import { narrowedAdmin } from '../../helpers/admins';
import { call } from '../../helpers/api';
import { expectPublished } from '../../helpers/contract';
import { requireEmulators } from '../../helpers/emulators';
import { png } from '../../helpers/images';
import { db } from '../../../src/platform/core/firebase/firebase';
import { APP_CONFIG, CMS_APP_CONFIGS } from '../../../src/modules/cms/cms.collections';

// The cms module through the API (in-process, on the emulators): banners, home sections and pages with drafts,
// versions, publish, unpublish, rollback and archive; the app config per surface (public, mirrored into a document
// anyone may listen to); the audit trail; who may do what; bad input.
beforeAll(requireEmulators);

const hour = 3_600_000;
let admin: Tokens;
let image: { id: string };
beforeAll(async () => {
  admin = await adminTokens();
  image = await upload(admin);
});

async function upload(who: Tokens) {
  const form = new FormData();
  form.append('file', new Blob([png()], { type: 'image/png' }), 'banner.png');
  return (await call('POST', '/upload/image', { token: who.accessToken, form })).body as { id: string };
}
const as = (who: Tokens | undefined) => (who ? { token: who.accessToken } : {});
const post = (path: string, body: unknown, who: Tokens | undefined = admin, headers?: Record<string, string>) =>
  call('POST', path, { ...as(who), body, headers });
const get = (path: string, who: Tokens | undefined = admin) => call('GET', path, as(who));
/** A city code of this test only, so banners of other runs and files do not show in its public lists. */
const city = () => `T_${randomUUID().replace(/-/g, '').slice(0, 12).toUpperCase()}`;
const banner = (extra: Record<string, unknown> = {}) => ({
  surface: 'CON',
  title: { vi: 'Giảm 50% chuyến đầu', en: '50% off your first ride' },
  imageId: image.id,
  link: { type: 'DEEP_LINK', tab: 'RideTab', screen: 'Book', params: { promo: 'FIRST50' } },
  startsAt: new Date(Date.now() - hour).toISOString(),
  ...extra,
});
const created = async (path: string, body: unknown) => {
  const res = await post(path, body, admin, { 'idempotency-key': randomUUID() });
  if (res.status !== 201) throw new Error(`${path} ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as { id: string; revision: number };
};
/** The ids of public items, leaving out the seed's (banners for every city, which the test stack imports). */
const own = (items: Array<{ id: string }>) => items.map((b) => b.id).filter((id) => !id.startsWith('seed-'));
const liveIds = async (surface: string, where: string | undefined) =>
  own((await get(`/cms/banners?surface=${surface}${where ? `&city=${where}` : ''}`, undefined)).body.items);

describe('banners', () => {
  it('draft, publish, edit, publish again, roll back, unpublish and archive, each in the audit trail', async () => {
    const hanoi = city();
    const { id } = await created('/cms/admin/banners', banner({ cities: [hanoi.toLowerCase()] }));
    const path = `/cms/admin/banners/${id}`;
    // A draft is never public.
    expect(await liveIds('CON', hanoi)).toEqual([]);

    const published = await post(`${path}/publish`, { revision: 1, note: 'launch' });
    expect(published.body).toMatchObject({
      status: 'PUBLISHED',
      liveVersion: 1,
      liveRevision: 1,
      latestVersion: 1,
      allowed: ['publish', 'rollback', 'unpublish'],
    });
    expect(await liveIds('CON', hanoi)).toEqual([id]);
    // Targeted at one city: not elsewhere, not without a city, not in another app.
    expect(await liveIds('CON', city())).not.toContain(id);
    expect(await liveIds('CON', undefined)).not.toContain(id);
    expect(await liveIds('DRV', hanoi)).toEqual([]);
    const shown = await get(`/cms/banners?surface=CON&city=${hanoi}`, undefined);
    expect(shown.headers.get('cache-control')).toBe('public, max-age=60');
    expect(shown.body.items.find((b: { id: string }) => b.id === id)).toMatchObject({
      id,
      version: 1,
      title: { en: '50% off your first ride' },
      link: { type: 'DEEP_LINK', params: { promo: 'FIRST50' } },
    });

    // Editing the draft leaves what is live alone until it is published; a stale revision is refused.
    const edit = await call('PATCH', path, { token: admin.accessToken, body: { revision: 1, title: { vi: 'Giảm 30%', en: '30% off' } } });
    expect(edit.body).toMatchObject({ revision: 2, draft: { title: { en: '30% off' } }, live: { title: { en: '50% off your first ride' } } });
    const stale = await call('PATCH', path, { token: admin.accessToken, body: { revision: 1, order: 5 } });
    expect([stale.status, stale.body.code, stale.body.details]).toEqual([409, 'CMS_REVISION_CONFLICT', { revision: 2 }]);
    expect((await post(`${path}/publish`, { revision: 1 })).body.code).toBe('CMS_REVISION_CONFLICT');
    const liveOne = async () => (await get(`/cms/banners?surface=CON&city=${hanoi}`, undefined)).body.items.find((b: { id: string }) => b.id === id);
    expect((await liveOne()).title.en).toBe('50% off your first ride');
    expect((await post(`${path}/publish`, {})).body).toMatchObject({ liveVersion: 2, liveRevision: 2 });
    // The same draft again: nothing new.
    expect((await post(`${path}/publish`, {})).body).toMatchObject({ liveVersion: 2, latestVersion: 2 });
    expect(await liveOne()).toMatchObject({ version: 2, title: { en: '30% off' } });

    const back = await post(`${path}/rollback`, { version: 1, note: 'the 30% was a mistake' });
    expect(back.body).toMatchObject({ liveVersion: 3, latestVersion: 3, revision: 3, liveRevision: 3, draft: { title: { en: '50% off your first ride' } } });
    expect((await post(`${path}/rollback`, { version: 1 })).body.latestVersion).toBe(3);
    expect((await post(`${path}/rollback`, { version: 9 })).body.code).toBe('CMS_VERSION_NOT_FOUND');
    expect((await post(`${path}/rollback`, { version: 2, revision: 2 })).body).toMatchObject({ code: 'CMS_REVISION_CONFLICT', details: { revision: 3 } });
    const versions = await get(`${path}/versions`);
    expect(
      versions.body.items.map((v: { version: number; rollbackOf: number | null; revision: number | null }) => [v.version, v.rollbackOf, v.revision]),
    ).toEqual([
      [3, 1, null],
      [2, null, 2],
      [1, null, 1],
    ]);
    expect(versions.body.items[2]).toMatchObject({ by: admin.user.id, note: 'launch', content: { title: { en: '50% off your first ride' } } });

    // Live: not archived. Unpublished: gone from the apps, then archived; an archived one is not edited.
    expect((await call('DELETE', path, { token: admin.accessToken })).body).toMatchObject({ code: 'CMS_STATUS_CONFLICT', details: { status: 'PUBLISHED' } });
    expect((await post(`${path}/unpublish`, {})).body).toMatchObject({ status: 'UNPUBLISHED', live: null, allowed: ['publish', 'rollback', 'archive'] });
    expect((await post(`${path}/unpublish`, {})).body.status).toBe('UNPUBLISHED');
    expect(await liveIds('CON', hanoi)).toEqual([]);
    expect((await call('DELETE', path, { token: admin.accessToken })).body.status).toBe('ARCHIVED');
    expect((await call('PATCH', path, { token: admin.accessToken, body: { revision: 3, order: 1 } })).body.code).toBe('CMS_STATUS_CONFLICT');
    expect((await post(`${path}/publish`, {})).body.code).toBe('CMS_STATUS_CONFLICT');
    // Restored: a draft again (versions kept), published again as version 4.
    expect((await post(`${path}/restore`, {})).body).toMatchObject({ status: 'DRAFT', latestVersion: 3, allowed: ['publish', 'archive'] });
    expect((await post(`${path}/restore`, {})).body.status).toBe('DRAFT');
    expect((await post(`${path}/publish`, {})).body).toMatchObject({ status: 'PUBLISHED', liveVersion: 4 });
    expect((await post(`/cms/admin/banners/nope/restore`, {})).status).toBe(404);

    const trail = await get(`/cms/admin/audit?kind=banner&entityId=${id}&limit=20`);
    expect(trail.body.items.map((e: { action: string }) => e.action).reverse()).toEqual([
      'CREATE',
      'PUBLISH',
      'EDIT',
      'PUBLISH',
      'ROLLBACK',
      'UNPUBLISH',
      'ARCHIVE',
      'RESTORE',
      'PUBLISH',
    ]);
    expect(trail.body.items.every((e: { by: string }) => e.by === admin.user.id)).toBe(true);
    expect(trail.body.items.find((e: { action: string }) => e.action === 'ROLLBACK')).toMatchObject({ version: 3, note: 'the 30% was a mistake' });
    const byMe = await get(`/cms/admin/audit?by=${admin.user.id}&kind=banner&limit=5`);
    expect(byMe.body.items.length).toBe(5);
    expect((await get(`/cms/admin/audit?entityId=${id}`)).status).toBe(400);
  });

  it('schedule windows and order: only what runs now, lower order first', async () => {
    const where = city();
    const now = Date.now();
    const make = async (extra: Record<string, unknown>) => {
      const { id } = await created('/cms/admin/banners', banner({ cities: [where], ...extra }));
      await post(`/cms/admin/banners/${id}/publish`, {});
      return id;
    };
    const second = await make({ order: 20 });
    const first = await make({ order: 10, endsAt: new Date(now + hour).toISOString() });
    await make({ startsAt: new Date(now + hour).toISOString() });
    await make({ startsAt: new Date(now - 2 * hour).toISOString(), endsAt: new Date(now - hour).toISOString() });
    expect(await liveIds('CON', where)).toEqual([first, second]);
    const list = await get('/cms/admin/banners?status=PUBLISHED&surface=CON&limit=2');
    expect(list.body.items).toHaveLength(2);
    expect(list.body.nextCursor).toEqual(expect.any(String));
  });

  it('retries: one Idempotency-Key makes one banner, five parallel publishes make one version', async () => {
    const key = randomUUID();
    // Racing the first, a retry is 409 while it runs; after, it answers the same banner.
    const body = banner();
    const tries = await Promise.all([1, 2, 3].map(() => post('/cms/admin/banners', body, admin, { 'idempotency-key': key })));
    expect(tries.every((t) => t.status === 201 || t.status === 409)).toBe(true);
    const retried = await post('/cms/admin/banners', body, admin, { 'idempotency-key': key });
    const id = retried.body.id as string;
    expect([retried.status, tries.some((t) => t.status === 201)]).toEqual([201, true]);
    expect(tries.filter((t) => t.status === 201).map((t) => t.body.id)).toEqual(tries.filter((t) => t.status === 201).map(() => id));
    expect((await get(`/cms/admin/audit?kind=banner&entityId=${id}`)).body.items.map((e: { action: string }) => e.action)).toEqual(['CREATE']);
    const publishes = await Promise.all([1, 2, 3, 4, 5].map(() => post(`/cms/admin/banners/${id}/publish`, {})));
    expect(publishes.map((p) => p.status)).toEqual([200, 200, 200, 200, 200]);
    const versions = await get(`/cms/admin/banners/${id}/versions`);
    expect(versions.body.items.map((v: { version: number }) => v.version)).toEqual([1]);

    // Two editors from the same revision: one edit lands, the other is told to read again.
    const edits = await Promise.all(
      [10, 20, 30].map((order) => call('PATCH', `/cms/admin/banners/${id}`, { token: admin.accessToken, body: { revision: 1, order } })),
    );
    expect(edits.map((e) => e.status).sort()).toEqual([200, 409, 409]);
    // An edit that changes nothing writes nothing (no revision, no audit line).
    const same = await call('PATCH', `/cms/admin/banners/${id}`, { token: admin.accessToken, body: { revision: 2, title: body.title } });
    expect(same.body.revision).toBe(2);
    expect((await get(`/cms/admin/audit?kind=banner&entityId=${id}`)).body.items.map((e: { action: string }) => e.action)).toEqual([
      'EDIT',
      'PUBLISH',
      'CREATE',
    ]);
    expect((await call('PATCH', `/cms/admin/banners/${id}`, { token: admin.accessToken, body: { order: 5 } })).status).toBe(400);
  });

  it('bad input is 400 or 422 with nothing written; texts come back as plain data', async () => {
    const before = (await get(`/cms/admin/audit?by=${admin.user.id}&limit=1`)).body.items[0]?.id;
    const bad = [
      banner({ endsAt: new Date(Date.now() - 2 * hour).toISOString() }),
      banner({ title: { vi: 'x'.repeat(81), en: 'ok' } }),
      banner({ link: { type: 'URL', url: 'http://example.com' } }),
      banner({ surface: 'ADM' }),
      banner({ cities: ['hà nội'] }),
      banner({ imageId: 'a/b' }),
      banner({ startsAt: '0000-01-01T00:00:00Z' }),
      banner({ endsAt: '2100-01-01T00:00:00Z' }),
      banner({ link: { type: 'DEEP_LINK', tab: 'RideTab', screen: 'Book', params: Object.fromEntries([...Array(11).keys()].map((i) => [`p${i}`, 'v'])) } }),
    ];
    for (const body of bad) expect((await post('/cms/admin/banners', body)).status).toBe(400);
    const stranger = await registerVerified();
    const theirs = await upload(stranger);
    const notMine = await post('/cms/admin/banners', banner({ imageId: theirs.id }));
    expect([notMine.status, notMine.body.code, notMine.body.details]).toEqual([422, 'CMS_IMAGE_INVALID', { mediaIds: [theirs.id] }]);
    expect((await get(`/cms/admin/audit?by=${admin.user.id}&limit=1`)).body.items[0]?.id).toBe(before);

    const script = '<script>alert(1)</script> Ưu đãi 🎉';
    const made = await created('/cms/admin/banners', banner({ title: { vi: script, en: script } }));
    const read = await get(`/cms/admin/banners/${made.id}`);
    expect(read.headers.get('content-type')).toMatch(/^application\/json/);
    expect(read.body.draft.title.vi).toBe(script);
    expect((await get('/cms/admin/banners/nope')).status).toBe(404);
    expect((await get('/cms/admin/banners/nope/versions')).status).toBe(404);
  });

  it('only administrators with cms.manage: a user 403, an admin holding [] 403 PERMISSION_REQUIRED; reading is public', async () => {
    const [user, narrowed] = await Promise.all([registerVerified(), narrowedAdmin([])]);
    expect((await post('/cms/admin/banners', banner(), user)).status).toBe(403);
    const refused = await post('/cms/admin/banners', banner(), narrowed);
    expect([refused.status, refused.body.code]).toEqual([403, 'PERMISSION_REQUIRED']);
    expect((await get('/cms/admin/audit', narrowed)).status).toBe(403);
    expect((await get('/cms/admin/config/CON', user)).status).toBe(403);
    expect((await get('/cms/admin/banners')).status).toBe(200);
    expect((await get('/cms/banners?surface=PAR', undefined)).status).toBe(200);
    expect((await get('/cms/banners', undefined)).status).toBe(400);
  });
});

describe('home sections', () => {
  it('sections with their items, edited and published, on the home screen with the banners', async () => {
    const where = city();
    const { id: bannerId } = await created('/cms/admin/banners', banner({ surface: 'DRV', cities: [where] }));
    await post(`/cms/admin/banners/${bannerId}/publish`, {});
    const section = {
      surface: 'DRV',
      type: 'SHORTCUTS',
      title: { vi: 'Dịch vụ', en: 'Services' },
      items: [
        { title: { vi: 'Đặt xe', en: 'Rides' }, imageId: image.id, link: { type: 'DEEP_LINK', tab: 'RideTab', screen: 'Home' } },
        { title: { vi: 'Trợ giúp', en: 'Help' }, link: { type: 'URL', url: 'https://help.superapp.vn/driver' } },
      ],
      cities: [where],
      order: 2,
    };
    const later = await created('/cms/admin/sections', section);
    const sooner = await created('/cms/admin/sections', { ...section, type: 'CARDS', order: 1 });
    expect((await post('/cms/admin/sections', { ...section, items: [] })).status).toBe(400);
    const patched = await call('PATCH', `/cms/admin/sections/${later.id}`, {
      token: admin.accessToken,
      body: { revision: 1, items: [{ title: { vi: 'Ví', en: 'Wallet' }, imageId: image.id }] },
    });
    expect(patched.body.draft.items).toEqual([
      { title: { vi: 'Ví', en: 'Wallet' }, subtitle: null, image: { id: image.id, url: expect.any(String) }, link: null },
    ]);
    await Promise.all([later, sooner].map((s) => post(`/cms/admin/sections/${s.id}/publish`, {})));

    const home = await get(`/cms/home?surface=DRV&city=${where}`, undefined);
    expect(own(home.body.banners)).toEqual([bannerId]);
    expect(home.body.sections.filter((s: { id: string }) => !s.id.startsWith('seed-')).map((s: { id: string; type: string }) => [s.id, s.type])).toEqual([
      [sooner.id, 'CARDS'],
      [later.id, 'SHORTCUTS'],
    ]);
    expect(home.body.sections.find((s: { id: string }) => s.id === later.id).items).toHaveLength(1);
    expect((await get(`/cms/admin/sections/${later.id}`)).body).toMatchObject({ id: later.id, status: 'PUBLISHED', revision: 2, liveVersion: 1 });

    await post(`/cms/admin/sections/${later.id}/unpublish`, { note: 'season over' });
    expect(own((await get(`/cms/home?surface=DRV&city=${where}`, undefined)).body.sections)).toEqual([sooner.id]);
    await post(`/cms/admin/sections/${later.id}/rollback`, { version: 1 });
    expect(own((await get(`/cms/home?surface=DRV&city=${where}`, undefined)).body.sections)).toHaveLength(2);
    expect((await get(`/cms/admin/sections/${later.id}/versions`)).body.items.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect((await call('DELETE', `/cms/admin/sections/${sooner.id}`, { token: admin.accessToken })).status).toBe(409);
    await post(`/cms/admin/sections/${sooner.id}/unpublish`, {});
    expect((await call('DELETE', `/cms/admin/sections/${sooner.id}`, { token: admin.accessToken })).body.status).toBe('ARCHIVED');
    expect((await post(`/cms/admin/sections/${sooner.id}/restore`, {})).body).toMatchObject({ status: 'DRAFT', live: null });
    expect((await get('/cms/admin/sections?surface=DRV&limit=100')).body.items.map((s: { id: string }) => s.id)).toEqual(
      expect.arrayContaining([later.id, sooner.id]),
    );
  });
});

describe('pages', () => {
  it('a page per slug, in both languages, public once published, with versions and rollback', async () => {
    const slug = `faq-${randomUUID().slice(0, 8)}`;
    const page = {
      slug,
      title: { vi: 'Câu hỏi thường gặp', en: 'FAQ' },
      body: { vi: 'Giải đáp về hoàn tiền.', en: 'About refunds.' },
      faq: [
        { question: { vi: 'Bao lâu thì được hoàn tiền?', en: 'How long does a refund take?' }, answer: { vi: '3–5 ngày làm việc.', en: '3–5 working days.' } },
      ],
    };
    const made = await post('/cms/admin/pages', page);
    expect(made.body).toMatchObject({ id: slug, status: 'DRAFT' });
    const again = await post('/cms/admin/pages', page);
    expect([again.status, again.body.code]).toEqual([409, 'CMS_SLUG_TAKEN']);
    expect((await post('/cms/admin/pages', { ...page, slug: 'Bad Slug' })).status).toBe(400);
    expect((await post('/cms/admin/pages', { ...page, slug: `x-${slug}`, body: { vi: 'a'.repeat(20_001), en: 'b' } })).status).toBe(400);
    expect((await get(`/cms/pages/${slug}`, undefined)).status).toBe(404);

    await post(`/cms/admin/pages/${slug}/publish`, {});
    const pub = await get(`/cms/pages/${slug}`, undefined);
    expect(pub.body).toMatchObject({ slug, version: 1, title: { vi: 'Câu hỏi thường gặp' }, faq: [{ answer: { en: '3–5 working days.' } }] });
    expect((await get('/cms/pages', undefined)).body.items).toEqual(expect.arrayContaining([expect.objectContaining({ slug, version: 1 })]));

    const patched = await call('PATCH', `/cms/admin/pages/${slug}`, { token: admin.accessToken, body: { revision: 1, body: { vi: 'Mới.', en: 'New.' } } });
    expect(patched.body).toMatchObject({
      revision: 2,
      draft: { body: { en: 'New.' }, faq: [{ question: { en: 'How long does a refund take?' } }] },
      live: { body: { en: 'About refunds.' } },
    });
    await post(`/cms/admin/pages/${slug}/publish`, {});
    expect((await get(`/cms/pages/${slug}`, undefined)).body).toMatchObject({ version: 2, body: { en: 'New.' } });
    await post(`/cms/admin/pages/${slug}/rollback`, { version: 1 });
    expect((await get(`/cms/pages/${slug}`, undefined)).body).toMatchObject({ version: 3, body: { en: 'About refunds.' } });
    expect((await get(`/cms/admin/pages?status=PUBLISHED&limit=100`)).body.items.map((p: { id: string }) => p.id)).toContain(slug);
    expect((await get(`/cms/admin/pages/${slug}`)).body).toMatchObject({ id: slug, liveVersion: 3, latestVersion: 3 });
    expect(
      (await get(`/cms/admin/pages/${slug}/versions?limit=2`)).body.items.map((v: { version: number; rollbackOf: number | null }) => [v.version, v.rollbackOf]),
    ).toEqual([
      [3, 1],
      [2, null],
    ]);

    await post(`/cms/admin/pages/${slug}/unpublish`, {});
    expect((await get(`/cms/pages/${slug}`, undefined)).status).toBe(404);
    expect((await call('DELETE', `/cms/admin/pages/${slug}`, { token: admin.accessToken })).body.status).toBe('ARCHIVED');
    expect((await post('/cms/admin/pages', page)).body).toMatchObject({ code: 'CMS_SLUG_TAKEN', details: { status: 'ARCHIVED' } });
    // Archived by mistake: restored and published again.
    await post(`/cms/admin/pages/${slug}/restore`, {});
    await post(`/cms/admin/pages/${slug}/publish`, {});
    expect((await get(`/cms/pages/${slug}`, undefined)).body.version).toBe(4);
  });
});

describe('app config', () => {
  it('readable without sign-in, edited as a draft, published into app_config/{surface}, rolled back', async () => {
    const surface = 'PAR';
    // As on a fresh project (the seed published one): never edited, the defaults, nothing stored.
    await Promise.all([db().recursiveDelete(db().doc(`${CMS_APP_CONFIGS}/${surface}`)), db().doc(`${APP_CONFIG}/${surface}`).delete()]);
    const start = (await get(`/cms/admin/config/${surface}`)).body as { revision: number };
    expect(start).toMatchObject({
      status: 'DRAFT',
      revision: 1,
      live: null,
      latestVersion: 0,
      allowed: ['publish'],
      draft: { minVersion: '0.0.0', flags: {} },
    });
    expect((await get(`/cms/config/${surface}?appVersion=1.0.0`, undefined)).body).toMatchObject({
      version: 0,
      flags: {},
      maintenanceNow: false,
      update: 'NONE',
      publishedAt: null,
    });
    expect((await get(`/cms/admin/config/${surface}/versions`)).body.items).toEqual([]);
    // An edit that changes nothing stores nothing.
    expect((await call('PATCH', `/cms/admin/config/${surface}`, { token: admin.accessToken, body: { revision: 1, flags: {} } })).body.revision).toBe(1);
    expect((await db().doc(`${CMS_APP_CONFIGS}/${surface}`).get()).exists).toBe(false);
    // Published as it stands: the defaults become version 1, stored with their audit lines.
    expect((await post(`/cms/admin/config/${surface}/publish`, {})).body).toMatchObject({
      status: 'PUBLISHED',
      liveVersion: 1,
      createdBy: admin.user.id,
      allowed: ['publish', 'rollback'],
    });
    expect((await get(`/cms/config/${surface}`, undefined)).body).toMatchObject({ version: 1, minVersion: '0.0.0' });

    const bad = [
      { revision: 1, minVersion: '3.0.0', latestVersion: '2.0.0' },
      { revision: 1, maintenance: { active: true, message: null, until: null } },
      { revision: 1, maintenance: { active: false, message: null, until: '0000-01-01T00:00:00Z' } },
      { revision: 1, minVersion: '2.0' },
      { revision: 1, flags: { 'Bad Flag': true } },
      { minVersion: '1.0.0' },
    ];
    for (const body of bad) expect((await call('PATCH', `/cms/admin/config/${surface}`, { token: admin.accessToken, body })).status).toBe(400);

    const flag = `payouts_${Date.now()}`;
    const until = new Date(Date.now() + hour).toISOString();
    const edited = await call('PATCH', `/cms/admin/config/${surface}`, {
      token: admin.accessToken,
      body: {
        revision: start.revision,
        minVersion: '2.0.0',
        latestVersion: '2.3.0',
        flags: { [flag]: true },
        maintenance: { active: true, message: { vi: 'Bảo trì đến 23h', en: 'Maintenance until 11pm' }, until },
      },
    });
    expect(edited.body).toMatchObject({ revision: start.revision + 1, draft: { minVersion: '2.0.0', flags: { [flag]: true } } });
    // The draft is not what apps see.
    expect((await get(`/cms/config/${surface}`, undefined)).body.flags[flag]).toBeUndefined();

    const published = await post(`/cms/admin/config/${surface}/publish`, { note: 'payouts on' });
    const version = published.body.liveVersion as number;
    expect(version).toBe(2);
    const live = await get(`/cms/config/${surface}?appVersion=1.9.9`, undefined);
    expect(live.body).toMatchObject({ surface, version, minVersion: '2.0.0', flags: { [flag]: true }, maintenanceNow: true, update: 'REQUIRED' });
    expect(live.body.maintenance.until).toBe(until);
    expect((await get(`/cms/config/${surface}?appVersion=2.1.0`, undefined)).body.update).toBe('AVAILABLE');
    expect((await get(`/cms/config/${surface}?appVersion=2.3.0`, undefined)).body.update).toBe('NONE');
    expect((await get(`/cms/config/${surface}?appVersion=latest`, undefined)).status).toBe(400);
    expect((await get('/cms/config/ADM', undefined)).status).toBe(404);

    // The listened document carries the same, with Timestamps, as the published contract says.
    const doc = await expectPublished('AppConfigDocument', `${APP_CONFIG}/${surface}`);
    expect(doc).toMatchObject({ surface, version, flags: { [flag]: true }, maintenance: { active: true } });

    await call('PATCH', `/cms/admin/config/${surface}`, {
      token: admin.accessToken,
      body: { revision: 2, maintenance: { active: false, message: null, until: null } },
    });
    const next = await post(`/cms/admin/config/${surface}/publish`, {});
    expect((await get(`/cms/config/${surface}`, undefined)).body).toMatchObject({ version: next.body.liveVersion, maintenanceNow: false });
    const back = await post(`/cms/admin/config/${surface}/rollback`, { version });
    expect((await db().doc(`${APP_CONFIG}/${surface}`).get()).data()).toMatchObject({ version: back.body.liveVersion, maintenance: { active: true } });
    const versions = await get(`/cms/admin/config/${surface}/versions?limit=3`);
    expect(versions.body.items[0]).toMatchObject({ version: back.body.liveVersion, rollbackOf: version });
    const trail = await get(`/cms/admin/audit?kind=appConfig&entityId=${surface}&limit=3`);
    expect(trail.body.items.map((e: { action: string }) => e.action)).toEqual(['ROLLBACK', 'PUBLISH', 'EDIT']);
  });
});
