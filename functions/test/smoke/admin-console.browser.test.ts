// The admin console in a real browser (headless Chromium) against the whole stack through Hosting: the console at
// /admin on the API's origin, the `api` function, the task queues. Each flow is checked in the page and then through
// the API.
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { adminTokens, codeSubject, emailOtpLogin, signUpByMail, type Tokens } from '../helpers/accounts';
import { call, uniqueEmail } from '../helpers/api';
import { CONSOLE_URL, withBrowser } from '../helpers/browser';
import { directBetween, sendText } from '../helpers/chat';
import { placeOrder, storeAt } from '../modules/commerce/setup';
import { onlineDriver } from '../helpers/drivers';
import { requireEmulators } from '../helpers/emulators';
import { area } from '../helpers/geo';
import { png } from '../helpers/images';
import { FIXTURES, uploadAll } from '../helpers/papers';
import { mailedCode } from '../helpers/sinks';
import { waitFor } from '../helpers/wait';
import { postTopUp } from '../helpers/wallet';

beforeAll(requireEmulators);
const { inBrowser } = withBrowser();

// The console's administrator: a fresh ADMIN (every permission) with its own mailbox, so its sign-in codes are
// never another file's.
let operator: Tokens & { email: string };
beforeAll(async () => {
  const admin = await adminTokens();
  operator = await signUpByMail({ name: 'Console Operator' });
  const promoted = await call('PATCH', `/users/admin/${operator.user.id}/roles`, { token: admin.accessToken, body: { roles: ['USER', 'ADMIN'] } });
  expect(promoted.status).toBe(200);
});

async function signInWithCode(page: Page, email: string) {
  await page.goto(CONSOLE_URL);
  await page.fill('input[name=email]', email);
  const since = Date.now();
  await page.click('[data-testid=signin-submit]');
  const code = await mailedCode(email, { since, subject: codeSubject('LOGIN', 'en') });
  await page.fill('input[name=code]', code);
  await page.click('[data-testid=signin-submit]');
}

describe('admin console (Chromium, through Hosting)', () => {
  it('is served at /admin with its security headers: the entry never cached, the hashed bundle for a year, a missing file 404', async () => {
    for (const url of [CONSOLE_URL, `${CONSOLE_URL}/`, `${CONSOLE_URL}/index.html`]) {
      const res = await fetch(url);
      expect([url, res.status]).toEqual([url, 200]);
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      const html = await res.text();
      const script = /src="(\/admin\/app-[0-9a-f]{12}\.js)"/.exec(html)?.[1];
      expect(script).toBeDefined();
      const bundle = await fetch(`${CONSOLE_URL.replace(/\/admin$/, '')}${script}`);
      expect([bundle.status, bundle.headers.get('cache-control')]).toEqual([200, 'public, max-age=31536000, immutable']);
    }
    expect((await fetch(`${CONSOLE_URL}/app-000000000000.js`)).status).toBe(404);
  });

  inBrowser('an administrator signs in with the mailed code and sees the overview and the menu its permissions open', async (page) => {
    await signInWithCode(page, operator.email);
    await page.waitForSelector('[data-testid=page-overview] [data-testid=overview-total]');
    const total = Number(await page.textContent('[data-testid=overview-total]'));
    const overview = await call('GET', '/users/admin/overview', { token: operator.accessToken });
    expect(Math.abs(total - overview.body.total)).toBeLessThan(50); // other files register accounts meanwhile
    expect(await page.$$eval('[data-testid=menu] a', (links) => links.map((a) => a.getAttribute('data-area')))).toEqual([
      'overview',
      'users',
      'applications',
      'money',
      'rides',
      'commerce',
      'bookings',
      'support',
      'moderation',
      'catalog',
      'cms',
      'broadcasts',
      'sessions',
    ]);
    await expect(page.textContent('[data-testid=me]')).resolves.toContain(operator.email);
  });

  inBrowser('the console speaks Vietnamese by default and English on request', async (page) => {
    await page.goto(`${CONSOLE_URL}#/overview`);
    await page.evaluate(() => (globalThis as unknown as { localStorage: { removeItem(k: string): void } }).localStorage.removeItem('superapp.lang'));
    await page.reload();
    await page.waitForSelector('[data-testid=page-overview]');
    const label = async () => page.textContent('[data-area=users]');
    expect(await page.getAttribute('html', 'lang')).toBe('vi');
    await expect(label()).resolves.toBe('Người dùng');
    await page.click('[data-testid=lang]');
    await expect(label()).resolves.toBe('Users');
    expect(await page.getAttribute('html', 'lang')).toBe('en');
  });

  inBrowser('approves a driver application after viewing its papers; the driver gets the DRV app', async (page) => {
    const email = uniqueEmail('console-driver');
    const since = Date.now();
    expect(
      (await call('POST', '/driver/register', { body: { email, fullName: 'Console Driver', vehicle: { type: 'MOTORBIKE', plate: '59X1-555.55' } } })).status,
    ).toBe(200);
    const code = await mailedCode(email, { since, subject: 'Finish your driver registration' });
    const driver = (await call<Tokens>('POST', '/auth/email/otp/verify', { body: { email, code, purpose: 'LOGIN', surface: 'DRV' } })).body;
    const applicationId = (await call('GET', '/kyc/applications', { token: driver.accessToken })).body.applications[0].id as string;
    await uploadAll(driver.accessToken, applicationId, [
      ['IDENTITY', FIXTURES.jpeg, 'image/jpeg'],
      ['DRIVER_LICENCE', png(), 'image/png'],
      ['VEHICLE_REGISTRATION', FIXTURES.pdf, 'application/pdf'],
    ]);

    await page.goto(`${CONSOLE_URL}#/applications/driver`);
    // The waiting list refreshes itself: the new application shows without a reload (newest first).
    await page.waitForSelector(`[data-row="${applicationId}"]`, { timeout: 30_000 });
    await page.click(`[data-row="${applicationId}"]`);
    await page.waitForSelector('[data-testid=page-application]');
    // The papers are in the page: the licence image decoded, the registration PDF framed.
    const licence = page.locator('[data-paper=DRIVER_LICENCE] img');
    await licence.waitFor();
    await waitFor(
      async () => ((await licence.evaluate((img: { complete: boolean; naturalWidth: number }) => img.complete && img.naturalWidth === 1)) ? true : undefined),
      {
        what: 'the licence image decoded in the page',
      },
    );
    await page.waitForSelector('[data-paper=VEHICLE_REGISTRATION] iframe[src^="blob:"]');
    await page.click('[data-testid=approve]');
    await page.waitForSelector('[data-testid=page-application] .badge.s-approved');

    const application = await call('GET', `/driver/admin/applications/${applicationId}`, { token: operator.accessToken });
    expect([application.body.status, application.body.reviewedBy]).toEqual(['APPROVED', operator.user.id]);
    const hats = await call('GET', '/users/me/hats', { token: driver.accessToken });
    expect(hats.body.unlocked).toContain('DRV');
  });

  inBrowser('signs one of a user’s devices out from its page; a role list saved from an older read is refused, not written over', async (page) => {
    const user = await signUpByMail({ name: 'Console Two Phones' });
    const second = await emailOtpLogin(user.email, 'CON');
    await page.goto(`${CONSOLE_URL}#/users/${user.user.id}`);
    await page.waitForSelector(`[data-testid=user-sessions] tr[data-row="${second.session.id}"]`);
    expect(await page.$$eval('[data-testid=user-sessions] tr[data-row]', (rows) => rows.length)).toBe(2);
    await page.click(`[data-testid="revoke-session-${second.session.id}"]`);
    await page.waitForSelector(`[data-testid=user-sessions] tr[data-row="${second.session.id}"]`, { state: 'detached' });
    expect((await call('GET', '/users/me', { token: second.accessToken })).body.code).toBe('TOKEN_REVOKED');
    expect((await call('GET', '/users/me', { token: user.accessToken })).status).toBe(200);
    // Another administrator changes the roles after this page was read: saving this page's list is refused.
    const meanwhile = await call('PATCH', `/users/admin/${user.user.id}/roles`, { token: operator.accessToken, body: { roles: ['USER', 'DRIVER'] } });
    expect(meanwhile.status).toBe(200);
    await page.click('[data-testid=save-roles]');
    await expect(page.textContent('[data-testid=toast-error]')).resolves.toContain('USER_CHANGED');
    expect((await call('GET', `/users/admin/${user.user.id}`, { token: operator.accessToken })).body.roles).toEqual(['USER', 'DRIVER']);
    // A newer copy of the account reaches the page (its lock): the roles card, with no edits, takes its list and time;
    // saving then keeps the other administrator's DRIVER instead of writing the page's older list over it.
    await page.click('[data-testid=lock-user]');
    await page.click('[data-testid=confirm]');
    await page.waitForSelector('[data-testid=unlock-user]');
    const locked = (await call('GET', `/users/admin/${user.user.id}`, { token: operator.accessToken })).body.updatedAt;
    await page.click('[data-testid=save-roles]');
    // The save applied (a refused one would leave the account's time as the lock left it).
    await waitFor(async () =>
      (await call('GET', `/users/admin/${user.user.id}`, { token: operator.accessToken })).body.updatedAt !== locked ? true : undefined,
    );
    const after = await call('GET', `/users/admin/${user.user.id}`, { token: operator.accessToken });
    expect(after.body).toMatchObject({ roles: ['USER', 'DRIVER'], disabled: true });
  });

  inBrowser('locks a user found by email; the API then refuses that user', async (page) => {
    const victim = await signUpByMail({ name: 'Console Lock Target' });
    expect((await call('GET', '/users/me', { token: victim.accessToken })).status).toBe(200);
    await page.goto(`${CONSOLE_URL}#/users`);
    await page.fill('input[name=q]', victim.email);
    await page.click('form.filters button[type=submit]');
    await page.click(`[data-row="${victim.user.id}"]`);
    await page.click('[data-testid=lock-user]');
    await page.click('[data-testid=confirm]');
    await page.waitForSelector('[data-testid=unlock-user]');

    const refused = await call('GET', '/users/me', { token: victim.accessToken });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('TOKEN_REVOKED');
    const login = await call('POST', '/auth/login/password', { body: { email: victim.email, password: victim.password } });
    expect([login.status, login.body.code]).toEqual([403, 'ACCOUNT_DISABLED']);
  });

  inBrowser('refunds a mock top-up (a key is sent for the retry-safe refund) and the wallet shows the change', async (page) => {
    const payer = await signUpByMail({ name: 'Console Payer' });
    const topUp = await postTopUp(payer, 20_000);
    expect([topUp.status, topUp.body.status]).toEqual([201, 'SUCCEEDED']);
    const paymentId = topUp.body.id as string;
    let keys = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/v1/payments/admin/refund') && /^[\x21-\x7e]{8,}$/.test(request.headers()['idempotency-key'] ?? '')) keys++;
    });

    await page.goto(`${CONSOLE_URL}#/money/payments`);
    await page.fill('input[name=payerId]', payer.user.id);
    await page.click('form.filters button[type=submit]');
    await page.click(`[data-testid="refund-${paymentId}"]`);
    await page.fill('textarea[name=reason]', 'Console test: topped up by mistake');
    await page.click('[data-testid=confirm]');
    await page.waitForSelector('[data-testid=toast-ok]');
    expect(keys).toBe(1);

    await page.goto(`${CONSOLE_URL}#/money/wallet/${payer.user.id}`);
    await page.waitForSelector('[data-testid=wallet-balance]');
    expect((await page.textContent('[data-testid=wallet-balance]'))?.replace(/\D/g, '')).toBe('0');
    const wallet = await call('GET', '/wallet', { token: payer.accessToken });
    expect(wallet.body.balance).toBe(0);
    const payment = await call('GET', `/payments/${paymentId}`, { token: payer.accessToken });
    expect(payment.body.status).toBe('REFUNDED');
  });

  inBrowser('sends a broadcast and follows it until it is done', async (page) => {
    await page.goto(`${CONSOLE_URL}#/broadcasts`);
    const title = `Console broadcast ${Date.now()}`;
    await page.fill('input[name=title]', title);
    await page.fill('textarea[name=body]', 'Bảo trì hệ thống lúc 23:00.');
    // Partners only: a small audience in a shared test database.
    for (const surface of ['CON', 'DRV']) await page.click(`label.check:has-text("${surface}") input`);
    await page.click('[data-testid=send-broadcast]');
    const card = page.locator('[data-broadcast]', { hasText: title });
    await card.waitFor();
    await page.waitForSelector(`[data-broadcast][data-status=DONE]:has-text("${title}")`, { timeout: 60_000 });
    const id = await card.getAttribute('data-broadcast');
    const job = await call('GET', `/notifications/broadcast/${id}`, { token: operator.accessToken });
    expect([job.body.status, job.body.surfaces]).toEqual(['DONE', ['PAR']]);
  });

  inBrowser('a chat report appears in the moderation queue without a reload and is actioned from its row', async (page) => {
    await page.goto(`${CONSOLE_URL}#/moderation/chat`);
    await page.waitForSelector('[data-testid=page-chat-reports]');
    const [sender, reporter] = [await signUpByMail({ name: 'Spammer' }), await signUpByMail({ name: 'Reporter' })];
    const message = await sendText(sender, await directBetween(sender, reporter), 'Mua ngay thuốc giảm cân!!!');
    const report = await call('POST', `/chat/messages/${message.body.id}/report`, { token: reporter.accessToken, body: { reason: 'SPAM' } });
    expect(report.status).toBe(201);
    await page.waitForSelector(`tr.fresh[data-row="${report.body.id}"]`, { timeout: 30_000 });
    await page.click(`[data-testid="action-${report.body.id}"]`);
    await page.waitForSelector(`[data-row="${report.body.id}"]`, { state: 'detached' });
    const actioned = await call('GET', '/chat/admin/reports?status=ACTIONED&limit=50', { token: operator.accessToken });
    expect(actioned.body.items.find((r: { id: string }) => r.id === report.body.id)).toMatchObject({ status: 'ACTIONED', resolvedBy: operator.user.id });
  });

  inBrowser('an SOS raised on a ride appears in the rides page without a reload and is resolved with a note', async (page) => {
    await page.goto(`${CONSOLE_URL}#/rides`);
    await page.waitForSelector('[data-testid=page-sos]');
    const here = area();
    await onlineDriver(here.near(100));
    const rider = await signUpByMail({ name: 'Console Rider' });
    const ride = await call('POST', '/rides', {
      token: rider.accessToken,
      body: { pickup: here.near(0), dropoff: here.near(3_000), vehicleType: 'MOTORBIKE', paymentMethod: 'CASH' },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(ride.body.status).toBe('CONFIRMED');
    const sos = await call('POST', `/rides/${ride.body.id}/sos`, {
      token: rider.accessToken,
      body: { message: 'Cứu với' },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(sos.status).toBe(201);
    await page.waitForSelector(`tr.fresh[data-row="${sos.body.id}"]`, { timeout: 30_000 });
    await page.click(`[data-testid="resolve-sos-${sos.body.id}"]`);
    await page.fill('textarea[name=reason]', 'Called the rider: safe');
    await page.click('[data-testid=confirm]');
    await page.waitForSelector(`[data-row="${sos.body.id}"]`, { state: 'detached' });
    const resolved = await call('GET', '/rides/admin/sos?status=RESOLVED&limit=50', { token: operator.accessToken });
    expect(resolved.body.items.find((x: { id: string }) => x.id === sos.body.id)).toMatchObject({
      note: 'Called the rider: safe',
      resolvedBy: operator.user.id,
    });
  });

  inBrowser('a small wallet adjustment applies at once and the wallet shows it', async (page) => {
    const user = await signUpByMail({ name: 'Console Adjusted' });
    await page.goto(`${CONSOLE_URL}#/money/adjustments`);
    await page.fill('input[name=userId]', user.user.id);
    await page.fill('input[name=amount]', '5000');
    await page.fill('form.card input[name=reason]', 'Console test: goodwill credit');
    await page.click('[data-testid=create-adjustment]');
    await page.waitForSelector('[data-testid=toast-ok]');
    expect((await call('GET', '/wallet', { token: user.accessToken })).body.balance).toBe(5_000);
    const listed = await call('GET', '/wallet/admin/adjustments?limit=50', { token: operator.accessToken });
    expect(listed.body.items.find((a: { userId: string }) => a.userId === user.user.id)).toMatchObject({
      status: 'APPLIED',
      amount: 5_000,
      direction: 'CREDIT',
    });
  });

  inBrowser('the map records and vouchers pages list what the admin operations answer', async (page) => {
    const places = await call('GET', '/places/admin?limit=25', { token: operator.accessToken });
    await page.goto(`${CONSOLE_URL}#/catalog/places`);
    expect(places.body.items.length).toBeGreaterThan(0); // the seed's places
    await page.waitForSelector('[data-testid=page-places] tr[data-row]');
    expect(await page.$$eval('[data-testid=page-places] tr[data-row]', (rows) => rows.map((r) => r.getAttribute('data-row')))).toEqual(
      places.body.items.map((p: { id: string }) => p.id),
    );
    await page.click('[role=tab]:has-text("Vouchers"), [role=tab]:has-text("Mã giảm giá")');
    await page.waitForSelector('[data-testid=page-vouchers]');
  });

  inBrowser('a food order is found in the orders page, opened and cancelled with a reason; the API shows it cancelled by an administrator', async (page) => {
    const here = area();
    const { seller } = await storeAt(here, 'Console Phở');
    const consumer = await signUpByMail({ name: 'Console Diner' });
    const { order } = await placeOrder(consumer, seller, here, { method: 'CASH' });
    expect(order.status).toBe('PLACED');
    await page.goto(`${CONSOLE_URL}#/commerce/orders`);
    await page.fill('input[name=consumerId]', consumer.user.id);
    await page.click('[data-testid=page-orders] form.filters button[type=submit]');
    await page.click(`[data-testid=page-orders] tr[data-row="${order.id}"] td:first-child`);
    await page.waitForSelector('[data-testid=order-detail] [data-testid=cancel-order]');
    await page.click('[data-testid=cancel-order]');
    await page.fill('textarea[name=reason]', 'Store reported out of stock by phone');
    await page.click('[data-testid=confirm]');
    await page.waitForSelector('[data-testid=order-detail] .badge.s-cancelled');
    const seen = await call('GET', `/orders/${order.id}`, { token: consumer.accessToken });
    expect(seen.body).toMatchObject({ status: 'CANCELLED', cancelledBy: 'ADMIN', cancelReason: 'Store reported out of stock by phone' });
    expect(await page.$('[data-testid=cancel-order]')).toBeNull(); // an ended order offers no cancel
  });

  inBrowser('a support ticket is answered from its thread: the user sees the reply, never the internal note', async (page) => {
    const user = await signUpByMail({ name: 'Console Ticket' });
    const opened = await call('POST', '/support/tickets', {
      token: user.accessToken,
      body: { category: 'PAYMENT', subject: 'Charged twice for a top-up', description: 'My 50,000 top-up shows twice.' },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(opened.status).toBe(201);
    const id = opened.body.id as string;
    await page.goto(`${CONSOLE_URL}#/support/tickets`);
    // Newest first: other files' open tickets come earlier by due time.
    await page.selectOption('[data-testid=page-tickets] select[name=order]', 'newest');
    await page.click('[data-testid=page-tickets] form.filters button[type=submit]');
    await page.waitForSelector(`[data-testid=page-tickets] tr[data-row="${id}"]`, { timeout: 30_000 });
    await page.click(`[data-testid=page-tickets] tr[data-row="${id}"] td:first-child`);
    await page.waitForSelector('[data-testid=ticket-detail] [data-testid=reply]');
    await page.fill('[data-testid=reply] textarea[name=body]', 'Checked the ledger: one charge is being refunded.');
    await page.click('[data-testid=send-reply]');
    await page.waitForSelector('[data-testid=thread] .message.staff:has-text("one charge is being refunded")');
    await page.check('[data-testid=reply] input[name=internal]');
    await page.fill('[data-testid=reply] textarea[name=body]', 'Internal: gateway double-callback, see payment log');
    await page.click('[data-testid=send-reply]');
    await page.waitForSelector('[data-testid=thread] .message.internal');
    const thread = await call('GET', `/support/tickets/${id}/messages?limit=50`, { token: user.accessToken });
    const bodies = thread.body.items.map((m: { body: string }) => m.body);
    expect(bodies).toContain('Checked the ledger: one charge is being refunded.');
    expect(bodies.join('\n')).not.toContain('gateway double-callback');
    const ticket = await call('GET', `/support/admin/tickets/${id}`, { token: operator.accessToken });
    expect(ticket.body).toMatchObject({ status: 'IN_PROGRESS', assigneeId: operator.user.id });
  });

  inBrowser('an app config edited at a stale revision is refused, then saved and published; the app reads the new version', async (page) => {
    const current = await call('GET', '/cms/admin/config/DRV', { token: operator.accessToken });
    const [major, minor, patch] = String(current.body.draft.latestVersion).split('.').map(Number);
    const theirs = `${major}.${minor}.${patch + 1}`;
    const next = `${major}.${minor}.${patch + 2}`;
    await page.goto(`${CONSOLE_URL}#/cms/config/DRV`);
    await page.waitForSelector('[data-testid=config-form]');
    // Another administrator edits the draft meanwhile: the form's revision is now stale.
    const other = await call('PATCH', '/cms/admin/config/DRV', {
      token: operator.accessToken,
      body: { revision: current.body.revision, latestVersion: theirs },
    });
    expect(other.status).toBe(200);
    await page.fill('input[name=latestVersion]', next);
    await page.click('[data-testid=config-save]');
    await expect(page.textContent('[data-testid=toast-error]')).resolves.toContain('CMS_REVISION_CONFLICT');
    await page.reload();
    await page.waitForSelector('[data-testid=config-form]');
    expect(await page.inputValue('input[name=latestVersion]')).toBe(theirs); // the newer draft, read again
    await page.fill('input[name=latestVersion]', next);
    await page.click('[data-testid=config-save]');
    const saved = await waitFor(async () => {
      const draft = await call('GET', '/cms/admin/config/DRV', { token: operator.accessToken });
      return draft.body.draft.latestVersion === next ? draft.body : undefined;
    });
    // Published from the form as read again after the save (its revision): an older form's publish would be refused.
    await page.click(`[data-testid=config-form][data-revision="${saved.revision}"] [data-testid=config-publish]`);
    await page.click('[data-testid=confirm]');
    const live = await waitFor(async () => {
      const res = await call('GET', '/cms/config/DRV');
      return res.body.latestVersion === next ? res.body : undefined;
    });
    expect(live.minVersion).toBe(current.body.draft.minVersion);
  });

  inBrowser('the trips, disputes, bookings, listings, parcels, content and canned-reply pages list what the admin operations answer', async (page) => {
    const pages: [route: string, testid: string, api: string][] = [
      ['rides/trips', 'page-trips', '/rides/admin?limit=25'],
      ['rides/disputes', 'page-disputes', '/rides/admin/disputes?limit=25'],
      ['commerce/deliveries', 'page-deliveries', '/delivery/admin/orders?limit=25'],
      ['commerce/merchants', 'page-merchants', '/merchants/admin?limit=25'],
      ['bookings/bookings', 'page-bookings', '/admin/bookings?limit=25'],
      ['bookings/hotels', 'page-hotels', '/hotels/admin?limit=25'],
      ['bookings/schools', 'page-schools', '/schools/admin?limit=25'],
      ['cms/banners', 'page-cms-banners', '/cms/admin/banners?limit=25'],
      ['cms/pages', 'page-cms-pages', '/cms/admin/pages?limit=25'],
      ['support/canned', 'page-canned', '/support/admin/canned-replies?limit=25'],
    ];
    for (const [route, testid, path] of pages) {
      const listed = await call('GET', path, { token: operator.accessToken });
      expect([path, listed.status]).toEqual([path, 200]);
      await page.goto(`${CONSOLE_URL}#/${route}`);
      const ids = listed.body.items.map((x: { id: string }) => x.id);
      if (ids.length === 0) {
        await page.waitForSelector(`[data-testid=${testid}] [data-testid=list-empty]`);
        continue;
      }
      await page.waitForSelector(`[data-testid=${testid}] tr[data-row]`);
      expect([route, await page.$$eval(`[data-testid=${testid}] tr[data-row]`, (rows) => rows.map((r) => r.getAttribute('data-row')))]).toEqual([route, ids]);
    }
  });

  inBrowser(
    'a consumer is refused: signed out with a notice, and the API refuses its calls to admin operations',
    async (page) => {
      const consumer = await signUpByMail({ name: 'Console Consumer' });
      await page.goto(CONSOLE_URL);
      await page.click('[role=tab]:nth-child(2)');
      await page.fill('input[name=email]', consumer.email);
      await page.fill('input[name=password]', consumer.password);
      await page.click('[data-testid=signin-submit]');
      await page.waitForSelector('[data-testid=signin] .error');
      expect(await page.evaluate(() => localStorage.getItem('superapp.admin.session'))).toBeNull();
      const refused = await call('GET', '/users/admin', { token: consumer.accessToken });
      expect([refused.status, refused.body.code]).toEqual([403, 'ROLE_REQUIRED']);
    },
    { fresh: true },
  );

  inBrowser(
    'an administrator narrowed to applications.review sees only the areas it may open (and the API refuses the rest)',
    async (page) => {
      const admin = await adminTokens();
      const narrow = await signUpByMail({ name: 'Console Reader' });
      await call('PATCH', `/users/admin/${narrow.user.id}/roles`, { token: admin.accessToken, body: { roles: ['USER', 'ADMIN'] } });
      const set = await call('PATCH', `/users/admin/${narrow.user.id}`, { token: admin.accessToken, body: { permissions: ['applications.review'] } });
      expect(set.body.permissions).toEqual(['applications.review']);
      await page.goto(CONSOLE_URL);
      await page.click('[role=tab]:nth-child(2)');
      await page.fill('input[name=email]', narrow.email);
      await page.fill('input[name=password]', narrow.password);
      await page.click('[data-testid=signin-submit]');
      try {
        await page.waitForSelector('[data-testid=menu]');
        expect(await page.$$eval('[data-testid=menu] a', (links) => links.map((a) => a.getAttribute('data-area')))).toEqual(['applications', 'sessions']);
        const refused = await call('PATCH', `/users/admin/${operator.user.id}`, { token: narrow.accessToken, body: { disabled: true } });
        expect([refused.status, refused.body.code]).toEqual([403, 'PERMISSION_REQUIRED']);
      } finally {
        await call('PATCH', `/users/admin/${narrow.user.id}/roles`, { token: admin.accessToken, body: { roles: ['USER'] } });
      }
    },
    { fresh: true },
  );
});
