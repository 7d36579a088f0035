#!/usr/bin/env node
// `npm run sounds:upload`: uploads the pack to a running stack through POST /upload/multiple in batches
// of at most 10 (28 files: 10, 10, 8). Safe to re-run: files whose exact bytes the account already has
// (GET /media?sha256=) are skipped.
//   SUPERAPP_API (default http://127.0.0.1:5000/api/v1), SUPERAPP_TOKEN, or SUPERAPP_EMAIL + SUPERAPP_PASSWORD
//   (default: the seeded local administrator).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DEV_ADMIN } from '../lib/dev-accounts.mjs';
import { fail, log } from '../lib/util.mjs';
import { SOUNDS } from './catalog.mjs';
import { PACK_DIR } from './pack.mjs';

const API = (process.env.SUPERAPP_API ?? 'http://127.0.0.1:5000/api/v1').replace(/\/+$/, '');
const BATCH = 10;

async function request(method, url, { token, json, form } = {}) {
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  let body;
  if (json) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(json);
  } else if (form) body = form;
  const res = await fetch(`${API}${url}`, { method, headers, body });
  const text = await res.text();
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed };
}

async function signIn() {
  if (process.env.SUPERAPP_TOKEN) return process.env.SUPERAPP_TOKEN;
  const email = process.env.SUPERAPP_EMAIL ?? DEV_ADMIN.email;
  const password = process.env.SUPERAPP_PASSWORD ?? DEV_ADMIN.password;
  const res = await request('POST', '/auth/login/password', { json: { email, password } });
  if (res.status !== 200 || !res.body.accessToken) fail(`sign-in as ${email} failed (${res.status}): ${res.body?.message ?? res.body}`);
  return res.body.accessToken;
}

export async function uploadPack() {
  try {
    await fetch(`${API}/health`);
  } catch {
    fail(`no API at ${API}: start the stack with \`npm start\` (or set SUPERAPP_API)`);
  }
  const token = await signIn();
  const files = SOUNDS.map((s) => {
    const file = path.join(PACK_DIR, `${s.name}.mp3`);
    if (!fs.existsSync(file)) fail(`${file} is missing: run npm run sounds:build`);
    const data = fs.readFileSync(file);
    return { name: `${s.name}.mp3`, data, sha256: createHash('sha256').update(data).digest('hex') };
  });

  log(`checking which of the ${files.length} files are already uploaded …`);
  const pending = [];
  const done = [];
  for (const f of files) {
    const existing = await request('GET', `/media?sha256=${f.sha256}&limit=1`, { token });
    if (existing.status !== 200) fail(`GET /media failed (${existing.status}): ${existing.body?.message ?? ''}`);
    const ready = existing.body.items.find((i) => i.status === 'READY');
    if (ready) done.push({ name: f.name, item: ready, skipped: true });
    else pending.push(f);
  }
  if (done.length) log(`${done.length} already uploaded, ${pending.length} to upload`);

  const batches = [];
  for (let i = 0; i < pending.length; i += BATCH) batches.push(pending.slice(i, i + BATCH));
  let failed = 0;
  for (const [i, batch] of batches.entries()) {
    const form = new FormData();
    for (const f of batch) form.append('files', new Blob([f.data], { type: 'audio/mpeg' }), f.name);
    const started = Date.now();
    const res = await request('POST', '/upload/multiple', { token, form });
    if (res.status !== 201) {
      failed += batch.length;
      log(`batch ${i + 1}/${batches.length}: ${batch.length} files FAILED (${res.status}): ${res.body?.message ?? res.body}`);
      continue;
    }
    batch.forEach((f, j) => done.push({ name: f.name, item: res.body[j], skipped: false }));
    log(`batch ${i + 1}/${batches.length}: ${batch.length} files uploaded in ${Date.now() - started} ms`);
  }

  const uploaded = done.filter((d) => !d.skipped).length;
  const skipped = done.length - uploaded;
  log(`summary: ${uploaded} uploaded, ${skipped} already there, ${failed} failed, ${files.length} in the pack`);
  for (const d of done.sort((a, b) => a.name.localeCompare(b.name))) log(`  ${d.name.padEnd(32)} ${d.item.status}  ${d.item.publicUrl}`);
  return { uploaded, skipped, failed };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await uploadPack();
  process.exit(result.failed ? 1 : 0);
}
