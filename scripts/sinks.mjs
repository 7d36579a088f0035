#!/usr/bin/env node
// Local stand-ins for the outside world: an SMTP server and an HTTP SMS gateway that keep what they
// receive (GET /inbox), a Google certificate endpoint tests can load their own keys into, and fake VNPay and
// MoMo gateways (scripts/lib/fake-gateways.mjs): payment pages that pay at once and call the API's IPN.
// `npm start` runs it with --print so OTP mails and texts show up in the terminal; `npm test` reads /inbox.
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { functionsDir } from './lib/util.mjs';
import { createFakeGateways, json, readBody } from './lib/fake-gateways.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k, v ?? 'true'];
  }),
);
const smtpPort = Number(args.smtp ?? 2525);
const httpPort = Number(args.http ?? 2580);
const print = args.print === 'true';
const require = createRequire(path.join(functionsDir, 'package.json'));
const { SMTPServer } = require('smtp-server');

const mails = [];
const texts = [];
let googleCerts = {};

function show(line) {
  if (print) process.stdout.write(`[dev-inbox] ${line}\n`);
}

// Quoted-printable to text: the escapes are UTF-8 bytes (Vietnamese letters take two or three).
function decodeQuotedPrintable(text) {
  const bytes = [];
  for (let i = 0; i < text.length; i += 1) {
    const hex = text[i] === '=' ? text.slice(i + 1, i + 3) : '';
    if (/^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(text[i], 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

// RFC 2047 encoded words (=?UTF-8?Q?…?= or =?UTF-8?B?…?=), as non-ASCII subjects arrive; the space between two goes.
function decodeWords(value) {
  return value.replace(/=\?[^?]+\?([QB])\?([^?]*)\?=(?:\s+(?==\?))?/gi, (_, encoding, text) =>
    encoding.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );
}

// Just enough MIME for the plain-text mails the API sends (7bit, quoted-printable or base64; UTF-8).
function parseMail(raw) {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const headers = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  let body = rest.join('\n\n');
  const encoding = headers['content-transfer-encoding'] ?? '';
  if (/quoted-printable/i.test(encoding)) body = decodeQuotedPrintable(body.replace(/=\r?\n/g, ''));
  else if (/base64/i.test(encoding)) body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return { subject: decodeWords(headers.subject ?? ''), from: headers.from ?? '', text: body.replace(/\r\n/g, '\n').trim() };
}

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    const chunks = [];
    stream.on('data', (c) => chunks.push(c));
    stream.on('end', () => {
      const parsed = parseMail(Buffer.concat(chunks).toString('utf8'));
      for (const rcpt of session.envelope.rcptTo) {
        mails.push({ to: rcpt.address.toLowerCase(), ...parsed, receivedAt: Date.now() });
        show(`mail to ${rcpt.address}: ${parsed.subject} | ${parsed.text.split('\n')[0]}`);
      }
      callback();
    });
  },
});


const gateways = createFakeGateways({ baseUrl: `http://127.0.0.1:${httpPort}`, env: process.env, show });

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, 'http://sinks');
  if (await gateways.handle(req, res, url)) return;
  if (req.method === 'POST' && url.pathname === '/sms') {
    const body = await readBody(req);
    if (!body || typeof body.to !== 'string' || typeof body.text !== 'string') return json(res, 400, { error: 'to and text required' });
    texts.push({ to: body.to, text: body.text, authorization: req.headers.authorization ?? null, receivedAt: Date.now() });
    show(`sms to ${body.to}: ${body.text}`);
    return json(res, 202, { accepted: true });
  }
  if (req.method === 'GET' && url.pathname === '/inbox') {
    const to = url.searchParams.get('to')?.toLowerCase();
    const match = (m) => !to || m.to.toLowerCase() === to;
    return json(res, 200, { mails: mails.filter(match), sms: texts.filter(match) });
  }
  if (req.method === 'GET' && url.pathname === '/google/certs') return json(res, 200, googleCerts);
  if (req.method === 'PUT' && url.pathname === '/google/certs') {
    googleCerts = (await readBody(req)) ?? {};
    return json(res, 200, { kids: Object.keys(googleCerts) });
  }
  if (req.method === 'GET' && url.pathname === '/health') return json(res, 200, { ok: true });
  json(res, 404, { error: 'not found' });
});

const listen = (target, port) =>
  new Promise((resolve, reject) => {
    target.once('error', reject);
    target.listen(port, '127.0.0.1', resolve);
  });

try {
  await listen(smtp, smtpPort);
  await listen(server, httpPort);
} catch (err) {
  process.stderr.write(`[sinks] cannot listen (smtp ${smtpPort}, http ${httpPort}): ${err.message}\n`);
  process.exit(1);
}
process.stdout.write(`[sinks] smtp 127.0.0.1:${smtpPort}, sms/inbox http://127.0.0.1:${httpPort}\n`);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0));
