// P7: peak memory of the API while it takes 10 parallel 15 MB uploads vs while it takes one. Each case
// runs in a fresh server process (scripts/bench/upload-server.cjs) on the Firestore emulator, and the
// peak RSS (VmHWM) of that process is compared. Streaming to storage keeps the ratio near 1; holding
// whole files in memory would grow it with every parallel upload. Run inside `firebase emulators:exec`.
import { fork } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { functionsDir, repoRoot } from '../lib/util.mjs';

const require = createRequire(path.join(functionsDir, 'package.json'));
const jwt = require('jsonwebtoken');
const log = (m) => process.stdout.write(`[superapp]   ${m}\n`);
const SECRET = 'bench-access-secret-0123456789abcdef0123456789';
const FILE_BYTES = 15 * 1024 * 1024 - 4096;
const mp3 = fs.readFileSync(path.join(functionsDir, 'test', 'fixtures', 'audio', 'tone.mp3'));
// A valid MP3 start, padded: the API sniffs the first bytes and streams the rest.
const payload = Buffer.concat([mp3, Buffer.alloc(FILE_BYTES - mp3.length)]);

function upload(port, token) {
  const boundary = `bench${Math.random().toString(36).slice(2)}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.mp3"\r\nContent-Type: audio/mpeg\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/api/v1/upload/single', headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + payload.length + tail.length } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 201 ? resolve() : reject(new Error(`upload answered ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.write(head);
    // Sent in 1 MB pieces, as a network delivers it.
    for (let i = 0; i < payload.length; i += 1024 * 1024) req.write(payload.subarray(i, i + 1024 * 1024));
    req.end(tail);
  });
}

async function peakWhile(parallel) {
  const storageDir = fs.mkdtempSync(path.join(os.tmpdir(), 'superapp-bench-uploads-'));
  const child = fork(path.join(repoRoot, 'scripts', 'bench', 'upload-server.cjs'), [], {
    env: { ...process.env, JWT_SECRET: SECRET, JWT_REFRESH_SECRET: `${SECRET}-refresh`, STORAGE_LOCAL_DIR: storageDir },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const next = () => new Promise((resolve) => child.once('message', resolve));
  try {
    const { port, rss: idleRss } = await next();
    const token = jwt.sign({ sub: 'bench-uploader', jti: 'j', sid: 's', typ: 'access', roles: ['USER'] }, SECRET, { algorithm: 'HS256', expiresIn: 600 });
    await upload(port, token); // warm-up: first-use costs (file-type, busboy, Firestore channel)
    child.send('peak');
    const warm = await next();
    const t0 = performance.now();
    await Promise.all(Array.from({ length: parallel }, () => upload(port, token)));
    const ms = performance.now() - t0;
    child.send('peak');
    const { peakRss } = await next();
    return { parallel, idleRssMb: mb(idleRss), warmPeakRssMb: mb(warm.peakRss), peakRssMb: mb(peakRss), ms: Math.round(ms) };
  } finally {
    child.send('stop');
    fs.rmSync(storageDir, { recursive: true, force: true });
  }
}

const mb = (bytes) => Math.round((bytes / 2 ** 20) * 10) / 10;

const out = process.argv[2];
try {
  const one = await peakWhile(1);
  log(`P7 one 15 MB upload: peak RSS ${one.peakRssMb} MB (idle ${one.idleRssMb} MB), ${one.ms} ms`);
  const ten = await peakWhile(10);
  log(`P7 ten parallel 15 MB uploads: peak RSS ${ten.peakRssMb} MB (idle ${ten.idleRssMb} MB), ${ten.ms} ms`);
  const ratio = Math.round((ten.peakRssMb / one.peakRssMb) * 1000) / 1000;
  fs.writeFileSync(out, JSON.stringify({ one, ten, ratio, fileMb: mb(FILE_BYTES) }));
} catch (err) {
  fs.writeFileSync(out, JSON.stringify({ error: err.message }));
}
