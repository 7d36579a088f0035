#!/usr/bin/env node
// `npm run smoke -- --base-url https://<host> [--otp-inbox <url>] [--docs on|off] [--email-domain <domain>]`
// A deployment's smoke test: health, the docs switch, a registration with a throwaway address (the code read from an
// inbox you control), a sign-in, an inbox read and a call between two throwaway accounts, then clean-up (the call
// ended, every session of both accounts signed out). Safe against production: it creates two `smoke+<random>`
// accounts and nothing that costs money. The API has no account deletion, so the two accounts stay, signed out
// (an administrator can lock them: DELETE /users/admin/:id).
// --otp-inbox: a mail sink answering GET <url>/inbox?to=<address> with { mails: [{ subject, text, receivedAt }] }
// (the local stack's sinks do; default $SINKS_URL, else `npm start`'s sink). --docs: the expected switch (default:
// reported, not asserted). Exit code 0 when every step passed.
import { randomBytes } from 'node:crypto';
import { DEV_SINKS } from './lib/profiles.mjs';
import { option } from './lib/util.mjs';

const base = (option('base-url') ?? '').replace(/\/+$/, '');
if (!/^https?:\/\//.test(base)) {
  process.stderr.write('usage: npm run smoke -- --base-url https://<host> [--otp-inbox <url>] [--docs on|off]\n');
  process.exit(2);
}
const inboxUrl = (option('otp-inbox', process.env.SINKS_URL ?? `http://127.0.0.1:${DEV_SINKS.http}`) ?? '').replace(/\/+$/, '');
const expectDocs = option('docs');
const domain = option('email-domain', 'example.com');
const api = `${base}/api/v1`;
const run = randomBytes(4).toString('hex');
const PASSWORD = `Smoke-${randomBytes(9).toString('base64url')}1a`;

let failed = 0;
const steps = [];
async function step(name, fn) {
  const started = Date.now();
  try {
    const detail = await fn();
    steps.push({ name, ok: true });
    process.stdout.write(`ok   ${name} (${Date.now() - started} ms)${detail ? `: ${detail}` : ''}\n`);
    return true;
  } catch (err) {
    failed += 1;
    steps.push({ name, ok: false, error: err.message });
    process.stdout.write(`FAIL ${name}: ${err.message}\n`);
    return false;
  }
}

async function call(method, path, { body, token } = {}) {
  const res = await fetch(`${api}${path}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, body: json };
}
const expectStatus = (res, status, what) => {
  if (res.status !== status) throw new Error(`${what}: HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body;
};

async function mailedCode(to, since) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const res = await fetch(`${inboxUrl}/inbox?to=${encodeURIComponent(to)}`, { signal: AbortSignal.timeout(10_000) });
    if (res.ok) {
      const { mails = [] } = await res.json();
      const mail = mails.filter((m) => m.receivedAt >= since && /\b\d{6}\b/.test(m.text)).at(-1);
      if (mail) return /\b(\d{6})\b/.exec(mail.text)[1];
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`no code mailed to ${to} within 60 s (is ${inboxUrl} a sink the API mails to?)`);
}

async function register(label) {
  const email = `smoke+${run}-${label}@${domain}`;
  const since = Date.now() - 1_000;
  expectStatus(await call('POST', '/auth/register', { body: { email, password: PASSWORD, name: `Smoke ${label}` } }), 200, 'register');
  const code = await mailedCode(email, since);
  const tokens = expectStatus(await call('POST', '/auth/email/otp/verify', { body: { email, code, purpose: 'REGISTER' } }), 200, 'verify the emailed code');
  return { email, userId: tokens.user.id };
}

const accounts = {};
const sessions = [];
let callId;

await step('health', async () => {
  const body = expectStatus(await call('GET', '/health'), 200, 'GET /health');
  return `status ${body.status ?? 'ok'}`;
});
await step('docs switch', async () => {
  const res = await fetch(`${base}/docs-json`, { signal: AbortSignal.timeout(20_000) });
  const on = res.status === 200;
  if (!on && res.status !== 404) throw new Error(`/docs-json answered ${res.status} (200 when on, 404 when off)`);
  if (expectDocs && (expectDocs === 'on') !== on) throw new Error(`docs are ${on ? 'on' : 'off'}, expected ${expectDocs}`);
  return on ? 'on (/docs-json 200)' : 'off (/docs-json 404)';
});
const registered =
  (await step('registration of a throwaway account (email code)', async () => {
    accounts.caller = await register('caller');
    return accounts.caller.email;
  })) &&
  (await step('registration of a second throwaway account', async () => {
    accounts.callee = await register('callee');
    return accounts.callee.email;
  }));
if (registered) {
  await step('password sign-in of both', async () => {
    for (const who of ['caller', 'callee']) {
      const tokens = expectStatus(await call('POST', '/auth/login/password', { body: { email: accounts[who].email, password: PASSWORD } }), 200, `sign-in (${who})`);
      accounts[who].token = tokens.accessToken;
      sessions.push(tokens.accessToken);
    }
  });
  await step('inbox read', async () => {
    const body = expectStatus(await call('GET', '/notifications', { token: accounts.caller.token }), 200, 'GET /notifications');
    return `${body.items?.length ?? 0} items, ${body.unreadCount ?? 0} unread`;
  });
  await step('a call: ring, answer, end', async () => {
    const started = expectStatus(await call('POST', '/chat/calls', { token: accounts.caller.token, body: { calleeId: accounts.callee.userId, type: 'audio' } }), 201, 'start the call');
    callId = started.id;
    expectStatus(await call('POST', `/chat/calls/${callId}/answer`, { token: accounts.callee.token }), 200, 'answer');
    const ended = expectStatus(await call('POST', `/chat/calls/${callId}/end`, { token: accounts.caller.token }), 200, 'end');
    callId = undefined;
    return `call ${started.id} ${ended.status}`;
  });
}
await step('clean-up: no call left ringing, every session of both accounts signed out', async () => {
  if (callId) await call('POST', `/chat/calls/${callId}/cancel`, { token: accounts.caller?.token });
  let revoked = 0;
  // One sign-out of every session per account (the registration's and the sign-in's).
  for (const token of sessions) revoked += expectStatus(await call('POST', '/auth/logout', { token, body: { allSessions: true } }), 200, 'logout').revoked;
  return `${revoked} sessions revoked`;
});

process.stdout.write(`smoke: ${steps.length - failed} passed, ${failed} failed (${base})\n`);
process.exit(failed > 0 ? 1 : 0);
