import fs from 'node:fs';
import path from 'node:path';
import { adminTokens, signUpByMail, type Tokens } from '../helpers/accounts';
import { call, uniqueEmail } from '../helpers/api';
import { BASE_URL, requireEmulators } from '../helpers/emulators';
import { mailedCode } from '../helpers/sinks';

// The smoke tier: one flow per module through Hosting and the `api` function in the Functions emulator, the
// way apps reach the deployed backend (the integration tier runs the same app in-process).
beforeAll(requireEmulators);

let user: Tokens;
let admin: Tokens;
beforeAll(async () => {
  expect(BASE_URL).toBe(process.env.SMOKE_BASE_URL ?? 'http://127.0.0.1:5000');
  [user, admin] = await Promise.all([signUpByMail(), adminTokens()]);
});

describe('smoke: one flow per module through Hosting and the Functions emulator', () => {
  it('auth + users: a registered account signs in with its password and reads its profile', async () => {
    const login = await call('POST', '/auth/login/password', { body: { email: user.user.email, password: 'correct horse battery' } });
    expect(login.status).toBe(200);
    const me = await call('GET', '/users/me', { token: login.body.accessToken });
    expect([me.status, me.body.id]).toEqual([200, user.user.id]);
  });

  it('admin: the overview counts accounts', async () => {
    const res = await call('GET', '/users/admin/overview', { token: admin.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.total).toBeGreaterThan(0);
  });

  it('driver + kyc: a driver registration opens an application at the sign-in with the mailed code', async () => {
    const email = uniqueEmail('smoke-driver');
    const since = Date.now();
    const reg = await call('POST', '/driver/register', { body: { email, fullName: 'Smoke Driver', vehicle: { type: 'MOTORBIKE', plate: '59X1-000.01' } } });
    expect(reg.status).toBe(200);
    const code = await mailedCode(email, { since, subject: 'Finish your driver registration' });
    const login = await call('POST', '/auth/email/otp/verify', { body: { email, code, purpose: 'LOGIN', surface: 'DRV' } });
    expect(login.status).toBe(200);
    const apps = await call('GET', '/kyc/applications', { token: login.body.accessToken });
    expect(apps.body.applications.map((a: { kind: string; status: string }) => `${a.kind}:${a.status}`)).toEqual(['DRIVER:SUBMITTED']);
  });

  it('partners: applying creates a SUBMITTED application', async () => {
    const res = await call('POST', '/partners/register', { token: user.accessToken, body: { businessName: 'Smoke Café', businessType: 'FNB' } });
    expect([res.status, res.body.kind, res.body.status]).toEqual([201, 'PARTNER', 'SUBMITTED']);
  });

  it('media: an uploaded sound is sniffed (file-type), stored and served back', async () => {
    const bytes = fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'audio', 'tone.mp3'));
    const form = new FormData();
    form.append('file', new Blob([bytes], { type: 'audio/mpeg' }), 'tone.mp3');
    const res = await call('POST', '/upload/single', { token: user.accessToken, form });
    expect([res.status, res.body.mimeType]).toEqual([201, 'audio/mpeg']);
    const served = await fetch(res.body.publicUrl);
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('notifications + chat: a call rings the callee (inbox item through the hub) and can be cancelled', async () => {
    const callee = await signUpByMail();
    const started = await call('POST', '/chat/calls', { token: user.accessToken, body: { calleeId: callee.user.id } });
    expect([started.status, started.body.status]).toEqual([201, 'RINGING']);
    const inbox = await call('GET', '/notifications?limit=10', { token: callee.accessToken });
    expect(inbox.body.items.map((i: { kind: string }) => i.kind)).toContain('CALL_INCOMING');
    const cancelled = await call('POST', `/chat/calls/${started.body.id}/cancel`, { token: user.accessToken });
    expect([cancelled.status, cancelled.body.status]).toEqual([200, 'CANCELLED']);
  });

  it('chat: a message through the API reaches the other member as an unread count and a CHAT_MESSAGE item (message trigger)', async () => {
    const other = await signUpByMail();
    const conversation = await call('POST', '/chat/conversations', { token: user.accessToken, body: { type: 'DIRECT', userId: other.user.id } });
    expect(conversation.status).toBe(201);
    const sent = await call('POST', `/chat/conversations/${conversation.body.id}/messages`, {
      token: user.accessToken,
      body: { type: 'TEXT', text: 'smoke' },
      headers: { 'idempotency-key': `smoke-${Date.now()}` },
    });
    expect(sent.status).toBe(201);
    let unread = 0;
    for (let i = 0; i < 150 && unread === 0; i++) {
      await new Promise((r) => setTimeout(r, 200));
      unread = (await call('GET', '/chat/unread', { token: other.accessToken })).body.unreadCount;
    }
    expect(unread).toBe(1);
    const inbox = await call('GET', '/notifications?limit=10', { token: other.accessToken });
    expect(inbox.body.items.map((i: { kind: string }) => i.kind)).toContain('CHAT_MESSAGE');
  });

  it('wallet + payments: a VNPay top-up paid on the (local fake) gateway page credits the wallet through the IPN, and notifies', async () => {
    const opened = await call('POST', '/wallet/topups', {
      token: user.accessToken,
      body: { amount: 75_000, provider: 'VNPAY' },
      headers: { 'idempotency-key': `smoke-topup-${Date.now()}` },
    });
    expect([opened.status, opened.body.status]).toEqual([201, 'PENDING']);
    // The payer's browser opens the page; the fake VNPay calls our IPN (through Hosting), then redirects back.
    const page = await fetch(opened.body.paymentUrl, { redirect: 'manual' });
    expect(page.status).toBe(302);
    const back = await fetch(page.headers.get('location')!);
    expect(await back.json()).toMatchObject({ paymentId: opened.body.id, verified: true, status: 'SUCCEEDED', gatewaySuccess: true });
    expect((await call('GET', '/wallet', { token: user.accessToken })).body.balance).toBe(75_000);
    let kinds: string[] = [];
    for (let i = 0; i < 150 && !kinds.includes('WALLET'); i++) {
      await new Promise((r) => setTimeout(r, 200));
      kinds = (await call('GET', '/notifications?limit=10', { token: user.accessToken })).body.items.map((n: { kind: string }) => n.kind);
    }
    expect(kinds).toContain('WALLET');
  });
});
