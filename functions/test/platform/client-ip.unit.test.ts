import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import express, { type Request } from 'express';
import type { LogEntry } from 'firebase-functions/logger';
import { z } from 'zod';
import { buildApp } from '../../src/app';
import {
  canonicalIp,
  clientIp,
  createClientIpResolver,
  FASTLY_EDGE_RANGES,
  ipRateLimitSubject,
  type ClientIpSource,
} from '../../src/platform/core/http/client-ip';
import { defineRoute } from '../../src/platform/core/http/route';
import type { ApiModule } from '../../src/platform/core/http/module';
import { createJwtAccessTokenVerifier } from '../../src/platform/core/auth/access-token';
import { createRateLimiter, memoryRateLimitStore } from '../../src/platform/core/ratelimit/rate-limit';
import { memoryIdempotencyStore } from '../../src/platform/kits/idempotency/idempotency';
import { setLogSink } from '../../src/platform/core/logging/logger';
import { ConfigError, parseConfig } from '../../src/platform/core/config';
import { testConfig, TEST_JWT_REFRESH_SECRET, TEST_JWT_SECRET } from '../helpers/config';
import { listen } from '../helpers/http';

// The caller's address for each way a request reaches the function, from header sets as they arrive (shapes as
// recorded by Firebase users: https://github.com/pbojinov/request-ip/issues/37, the Cloud Functions header
// reference https://cloud.google.com/functions/docs/reference/headers, Fastly's Fastly-Client-IP reference).
// 113.161.72.15 is the phone (a VNPT address); 157.52.91.33 and 2a04:4e42:400::123 are Fastly edges; 169.254.x is
// the Cloud Run sandbox's peer, Google's front end.

interface Recorded {
  remote: string | undefined; // undefined: the Functions emulator's unix socket (or a reset TCP connection)
  headers: Record<string, string>;
}

const HOSTING_COMMON = {
  host: 'asia-southeast1-superapp-vn.cloudfunctions.net',
  'user-agent': 'SuperApp/2.0 (Android 14)',
  'fastly-client': '1',
  'fastly-ff': 's48hDkrIORDrAz3sjuyh5gIWcInqIjSROZ47KAY+w/I=!SIN!cache-sin-wsss1830040-SIN',
  'fastly-ssl': '1',
  'x-forwarded-host': 'superapp-vn.web.app',
  'x-forwarded-proto': 'https',
  'x-cloud-trace-context': '65011637f09e0a5179677a7429456db7/1027871334010811884;o=1',
};

const RECORDED: Record<string, Recorded> = {
  // Through a Hosting rewrite: Google's front end appended the edge it saw; the client is in Fastly-Client-IP.
  hostingEdgeOnly: {
    remote: '169.254.8.129',
    headers: { ...HOSTING_COMMON, 'fastly-client-ip': '113.161.72.15', 'fastly-temp-xff': '113.161.72.15', 'x-forwarded-for': '157.52.91.33' },
  },
  // The same, where the CDN also appended the client before the edge.
  hostingClientAndEdge: {
    remote: '169.254.8.129',
    headers: { ...HOSTING_COMMON, 'fastly-client-ip': '113.161.72.15', 'x-forwarded-for': '113.161.72.15, 157.52.91.33' },
  },
  // An IPv6 phone through an IPv6 edge.
  hostingIpv6: {
    remote: '169.254.8.129',
    headers: { ...HOSTING_COMMON, 'fastly-client-ip': '2402:800:6314:9f3a::1', 'x-forwarded-for': '2a04:4e42:400::123' },
  },
  // An edge that sent no usable Fastly-Client-IP.
  hostingWithoutClient: { remote: '169.254.8.129', headers: { ...HOSTING_COMMON, 'fastly-client-ip': 'unknown', 'x-forwarded-for': '157.52.91.33' } },
  // The function's own URL: Google's front end appended the caller.
  direct: { remote: '169.254.8.129', headers: { host: 'api-5x3ukx4rfa-as.a.run.app', 'x-forwarded-for': '113.161.72.15', 'x-forwarded-proto': 'https' } },
  // The function's own URL, called with made-up headers: the front end still appends the real caller last.
  directSpoofed: {
    remote: '169.254.8.129',
    headers: { host: 'api-5x3ukx4rfa-as.a.run.app', 'fastly-client-ip': '1.2.3.4', 'x-forwarded-for': '1.2.3.4, 113.161.72.15' },
  },
  // ... even pretending to be a Fastly edge in X-Forwarded-For.
  directSpoofedEdge: {
    remote: '169.254.8.129',
    headers: { host: 'api-5x3ukx4rfa-as.a.run.app', 'fastly-client-ip': '9.9.9.9', 'x-forwarded-for': '151.101.1.195, 113.161.72.15' },
  },
  // Local stack: Hosting emulator -> Functions emulator -> runtime over a unix socket; no address is added.
  emulatorViaHosting: { remote: undefined, headers: { host: '127.0.0.1:5001', 'x-forwarded-host': '127.0.0.1:5000', 'x-original-url': '/api/v1/auth/login' } },
  // The test helpers' per-test addresses through the local stack.
  emulatorWithTestIp: { remote: undefined, headers: { host: '127.0.0.1:5001', 'x-forwarded-for': '198.18.4.7', 'fastly-client-ip': '9.9.9.9' } },
  // A plain server on its own (CLIENT_IP_SOURCE=socket), whatever the client writes.
  plainServer: { remote: '::ffff:203.0.113.5', headers: { host: 'api.example.test', 'x-forwarded-for': '1.2.3.4', 'fastly-client-ip': '1.2.3.4' } },
};

// `listening`: what the server's address() answers (a string for a unix socket), when the socket knows its server.
function requestOf(recorded: Recorded, trustProxy: number | boolean, listening?: string | { port: number }): Request {
  const app = express();
  app.set('trust proxy', trustProxy);
  const req = Object.create(app.request) as Request;
  const socket = { remoteAddress: recorded.remote, ...(listening === undefined ? {} : { server: { address: () => listening } }) };
  Object.assign(req, { headers: { ...recorded.headers }, socket, connection: socket });
  return req;
}

const resolveFull = (source: ClientIpSource, name: keyof typeof RECORDED, trustProxy: number | boolean = 1) =>
  createClientIpResolver({ source, hostingEdges: FASTLY_EDGE_RANGES })(requestOf(RECORDED[name], trustProxy));
const resolve = (source: ClientIpSource, name: keyof typeof RECORDED, trustProxy: number | boolean = 1) => resolveFull(source, name, trustProxy).ip;

// The Functions emulator's runtime has FUNCTIONS_EMULATOR=true; the records without a remote address need it.
function inEmulator(on: boolean) {
  if (on) process.env.FUNCTIONS_EMULATOR = 'true';
  else delete process.env.FUNCTIONS_EMULATOR;
}

describe('the client address per topology (CLIENT_IP_SOURCE)', () => {
  let warnings: LogEntry[] = [];
  beforeEach(() => {
    warnings = [];
    setLogSink((entry) => entry.severity === 'WARNING' && warnings.push(entry));
  });
  afterAll(() => setLogSink(() => undefined));

  it('hosting: the phone, from Fastly-Client-IP, not the edge every user behind it shares; the edge that vouched for it beside', () => {
    expect(resolveFull('hosting', 'hostingEdgeOnly')).toEqual({ ip: '113.161.72.15', edge: '157.52.91.33' });
    expect(resolveFull('hosting', 'hostingClientAndEdge')).toEqual({ ip: '113.161.72.15', edge: '157.52.91.33' });
    expect(resolveFull('hosting', 'hostingIpv6')).toEqual({ ip: '2402:800:6314:9f3a::1', edge: '2a04:4e42:400::123' });
    // What `direct` would key on behind Hosting: the edge.
    expect(resolveFull('direct', 'hostingEdgeOnly')).toEqual({ ip: '157.52.91.33' });
  });

  it('hosting: an edge without a usable Fastly-Client-IP is keyed on the edge, never on a made-up value', () => {
    expect(resolveFull('hosting', 'hostingWithoutClient')).toEqual({ ip: '157.52.91.33' });
  });

  it('hosting: a call to the function URL with made-up Fastly-Client-IP and X-Forwarded-For gets its real address', () => {
    const hosting = createClientIpResolver({ source: 'hosting' });
    expect(hosting(requestOf(RECORDED.direct, 1))).toEqual({ ip: '113.161.72.15' });
    expect(hosting(requestOf(RECORDED.directSpoofed, 1))).toEqual({ ip: '113.161.72.15' });
    expect(hosting(requestOf(RECORDED.directSpoofedEdge, 1))).toEqual({ ip: '113.161.72.15' });
    expect(warnings).toHaveLength(1); // once per instance: the log shows it, an attacker cannot flood it
    expect(warnings[0]).toMatchObject({ peer: '113.161.72.15' });
  });

  it('direct: the entry Google’s front end appended, whatever the client put before it', () => {
    expect(resolve('direct', 'direct')).toBe('113.161.72.15');
    expect(resolve('direct', 'directSpoofed')).toBe('113.161.72.15');
    expect(resolve('direct', 'directSpoofedEdge')).toBe('113.161.72.15');
    // Without TRUST_PROXY nothing is read from headers: the peer is Google's front end.
    expect(resolve('direct', 'directSpoofed', false)).toBe('169.254.8.129');
  });

  it('the emulator (unix socket): the nearest X-Forwarded-For entry, else "local"; Fastly-Client-IP from a local client is not believed', () => {
    inEmulator(true);
    try {
      for (const source of ['direct', 'hosting'] as const) {
        expect(resolve(source, 'emulatorViaHosting')).toBe('local');
        expect(resolve(source, 'emulatorWithTestIp')).toBe('198.18.4.7');
        expect(resolve(source, 'emulatorWithTestIp', false)).toBe('198.18.4.7');
      }
      expect(resolve('socket', 'emulatorWithTestIp')).toBe('local');
    } finally {
      inEmulator(false);
    }
  });

  it('no remote address outside the emulator (a reset TCP connection): "unknown", never a header the client wrote', () => {
    inEmulator(false);
    // The plain server without TRUST_PROXY (server.ts), where it happens: nothing in front wrote X-Forwarded-For.
    for (const source of ['direct', 'hosting', 'socket'] as const) {
      expect(resolve(source, 'emulatorViaHosting', false)).toBe('unknown');
      expect(resolve(source, 'emulatorWithTestIp', false)).toBe('unknown');
      // On a TCP server that knows its port, the same.
      expect(createClientIpResolver({ source })(requestOf(RECORDED.emulatorWithTestIp, false, { port: 8081 })).ip).toBe('unknown');
    }
    // The socket source never reads headers, whatever TRUST_PROXY says.
    expect(resolve('socket', 'emulatorWithTestIp', 1)).toBe('unknown');
    // With a hop count the nearest entry is the trusted proxy's writing, by configuration (Express's req.ip).
    expect(resolve('direct', 'emulatorWithTestIp', 1)).toBe('198.18.4.7');
  });

  it('a server listening on a unix socket: its hop is local, as in the emulator', () => {
    inEmulator(false);
    const req = () => requestOf(RECORDED.emulatorWithTestIp, 1, '/run/superapp/api.sock');
    expect(createClientIpResolver({ source: 'direct' })(req()).ip).toBe('198.18.4.7');
    expect(createClientIpResolver({ source: 'socket' })(req()).ip).toBe('local');
  });

  it('socket: the TCP peer, headers ignored', () => {
    expect(resolve('socket', 'plainServer')).toBe('203.0.113.5');
    expect(resolve('socket', 'directSpoofed')).toBe('169.254.8.129');
  });

  it('custom HOSTING_EDGE_RANGES replace the default list', () => {
    const onlyOurProxy = createClientIpResolver({ source: 'hosting', hostingEdges: ['10.8.0.0/16'] });
    expect(onlyOurProxy(requestOf(RECORDED.hostingEdgeOnly, 1)).ip).toBe('157.52.91.33');
    const req = requestOf({ remote: '169.254.8.129', headers: { 'fastly-client-ip': '113.161.72.15', 'x-forwarded-for': '10.8.3.4' } }, 1);
    expect(onlyOurProxy(req)).toEqual({ ip: '113.161.72.15', edge: '10.8.3.4' });
  });

  it('every spelling of one address is one address (sessions, logs and keys)', () => {
    const hosting = createClientIpResolver({ source: 'hosting' });
    const via = (client: string, edge = '2a04:4e42:400::123') =>
      hosting(requestOf({ remote: '169.254.8.129', headers: { 'fastly-client-ip': client, 'x-forwarded-for': edge } }, 1));
    for (const spelling of ['2402:800:6314:9f3a::1', '2402:0800:6314:9F3A:0000:0000:0000:0001', '2402:800:6314:9f3a:0:0:0:1', '2402:800:6314:9f3a::0:1']) {
      expect(via(spelling).ip).toBe('2402:800:6314:9f3a::1');
    }
    expect(via('2402:800:6314:9f3a::1', '2A04:4E42:0400:0000:0000:0000:0000:0123').edge).toBe('2a04:4e42:400::123');
    // An IPv4 client through an IPv6 edge, written as IPv4-mapped IPv6 (dotted or hex): its IPv4 address.
    expect(via('::ffff:113.161.72.15').ip).toBe('113.161.72.15');
    expect(via('::FFFF:71a1:480f').ip).toBe('113.161.72.15');
    expect(resolve('socket', 'plainServer')).toBe('203.0.113.5'); // Express's ::ffff:203.0.113.5
  });
});

describe('canonical addresses and rate-limit subjects', () => {
  it('writes IPv6 as RFC 5952 does: lower case, no leading zeros, the first longest zero run as ::, never a lone zero group', () => {
    expect(canonicalIp('2001:DB8:0:0:1:0:0:1')).toBe('2001:db8::1:0:0:1');
    expect(canonicalIp('2001:db8:0:0:0:0:2:1')).toBe('2001:db8::2:1');
    expect(canonicalIp('2001:db8:0:1:1:1:1:1')).toBe('2001:db8:0:1:1:1:1:1');
    expect(canonicalIp('2001:0db8:0000:0000:0001:0000:0000:0000')).toBe('2001:db8:0:0:1::');
    expect(canonicalIp('0:0:0:0:0:0:0:0')).toBe('::');
    expect(canonicalIp('0:0:0:0:0:0:0:1')).toBe('::1');
    expect(canonicalIp('fe80::1%eth0')).toBe('fe80::1');
    expect(canonicalIp('64:ff9b::192.0.2.33')).toBe('64:ff9b::c000:221');
    expect(canonicalIp('198.51.100.7')).toBe('198.51.100.7');
    expect(canonicalIp('not an address')).toBe('not an address');
  });

  it('keys IPv6 callers on their /64, IPv4 callers on their address', () => {
    expect(ipRateLimitSubject('2402:800:6314:9f3a::1')).toBe('2402:800:6314:9f3a::/64');
    expect(ipRateLimitSubject('2402:800:6314:9f3a:dead:beef:1:2')).toBe('2402:800:6314:9f3a::/64');
    expect(ipRateLimitSubject('2402:0800:6314:9F3A:ffff::')).toBe('2402:800:6314:9f3a::/64');
    expect(ipRateLimitSubject('2402:800:6314:9f3b::1')).toBe('2402:800:6314:9f3b::/64');
    expect(ipRateLimitSubject('2001:db8::1')).toBe('2001:db8::/64');
    expect(ipRateLimitSubject('113.161.72.15')).toBe('113.161.72.15');
    expect(ipRateLimitSubject('local')).toBe('local');
  });
});

describe('through the app', () => {
  const ok = z.object({ ip: z.string() });
  const probe: ApiModule = {
    name: 'probe',
    routes: () => [
      defineRoute({
        method: 'get',
        path: '/probe/ip',
        operationId: 'probeIp',
        tag: 'health',
        summary: 'ip',
        auth: 'public',
        response: { description: 'ok', schema: ok },
        handler: ({ req }) => ({ ip: clientIp(req) }),
      }),
    ],
  };
  const appWith = (env: Record<string, string>) => {
    const config = testConfig(env);
    return buildApp({
      config,
      modules: [probe],
      verifyAccessToken: createJwtAccessTokenVerifier(config.JWT_SECRET),
      rateLimiter: createRateLimiter(memoryRateLimitStore()),
      idempotency: memoryIdempotencyStore(),
    }).app;
  };

  it('CLIENT_IP_SOURCE and HOSTING_EDGE_RANGES reach the routes (a local proxy standing in for the edge)', async () => {
    const server = await listen(appWith({ CLIENT_IP_SOURCE: 'hosting', TRUST_PROXY: '1', HOSTING_EDGE_RANGES: '127.0.0.0/8' }));
    try {
      // The loopback peer is "the edge" here only because the ranges say so; TRUST_PROXY=1 makes it the socket's.
      const viaEdge = await fetch(`${server.url}/api/v1/probe/ip`, { headers: { 'fastly-client-ip': '113.161.72.15' } });
      expect(await viaEdge.json()).toEqual({ ip: '113.161.72.15' });
      const spoofed = await fetch(`${server.url}/api/v1/probe/ip`, { headers: { 'fastly-client-ip': '113.161.72.15', 'x-forwarded-for': '198.51.100.9' } });
      expect(await spoofed.json()).toEqual({ ip: '198.51.100.9' });
    } finally {
      await server.close();
    }
  });

  it('a server on a unix socket (no peer address): the nearest X-Forwarded-For entry, as in the emulator', async () => {
    const socketPath = path.join(os.tmpdir(), `superapp-ip-${process.pid}-${Date.now()}.sock`);
    const server = appWith({}).listen(socketPath);
    await once(server, 'listening');
    try {
      const ask = (headers: Record<string, string>) =>
        new Promise<unknown>((resolve, reject) => {
          const req = httpRequest({ socketPath, path: '/api/v1/probe/ip', headers }, (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (text += chunk));
            res.on('end', () => resolve(JSON.parse(text)));
          });
          req.on('error', reject);
          req.end();
        });
      expect(await ask({ 'x-forwarded-for': '198.51.100.9' })).toEqual({ ip: '198.51.100.9' });
      expect(await ask({})).toEqual({ ip: 'local' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('the default (direct, TRUST_PROXY unset) keys on the socket', async () => {
    const server = await listen(appWith({}));
    try {
      const res = await fetch(`${server.url}/api/v1/probe/ip`, { headers: { 'fastly-client-ip': '113.161.72.15', 'x-forwarded-for': '198.51.100.9' } });
      expect(await res.json()).toEqual({ ip: '127.0.0.1' });
    } finally {
      await server.close();
    }
  });
});

describe('configuration', () => {
  const problemsOf = (env: Record<string, string>) => {
    try {
      parseConfig({ JWT_SECRET: TEST_JWT_SECRET, JWT_REFRESH_SECRET: TEST_JWT_REFRESH_SECRET, ...env });
      return [];
    } catch (err) {
      if (err instanceof ConfigError) return err.problems;
      throw err;
    }
  };

  it('defaults to direct and to Fastly’s published ranges', () => {
    expect(testConfig()).toMatchObject({ CLIENT_IP_SOURCE: 'direct', HOSTING_EDGE_RANGES: FASTLY_EDGE_RANGES });
    expect(testConfig({ HOSTING_EDGE_RANGES: ' 10.0.0.0/8 , 2001:db8::/32 ' }).HOSTING_EDGE_RANGES).toEqual(['10.0.0.0/8', '2001:db8::/32']);
  });

  it('HOSTING_EDGE_LIMIT_FACTOR: 50 by default, 0 turns the edge bucket off, anything else but a whole number refuses the boot', () => {
    expect(testConfig().HOSTING_EDGE_LIMIT_FACTOR).toBe(50);
    expect(testConfig({ HOSTING_EDGE_LIMIT_FACTOR: '0' }).HOSTING_EDGE_LIMIT_FACTOR).toBe(0);
    expect(testConfig({ HOSTING_EDGE_LIMIT_FACTOR: '200' }).HOSTING_EDGE_LIMIT_FACTOR).toBe(200);
    for (const bad of ['-1', '2.5', 'many']) expect(problemsOf({ HOSTING_EDGE_LIMIT_FACTOR: bad }).join('\n')).toContain('HOSTING_EDGE_LIMIT_FACTOR');
  });

  it('refuses an unknown source, a malformed range, and hosting without a hop count', () => {
    expect(problemsOf({ CLIENT_IP_SOURCE: 'cdn' }).join('\n')).toContain('CLIENT_IP_SOURCE');
    expect(problemsOf({ HOSTING_EDGE_RANGES: '151.101.0.0/16,151.101.0.0/33,edge' }).join('\n')).toMatch(/HOSTING_EDGE_RANGES .*"151.101.0.0\/33", "edge"/);
    expect(problemsOf({ CLIENT_IP_SOURCE: 'hosting' }).join('\n')).toContain('CLIENT_IP_SOURCE=hosting needs TRUST_PROXY');
    expect(problemsOf({ CLIENT_IP_SOURCE: 'hosting', TRUST_PROXY: 'true' }).join('\n')).toContain('CLIENT_IP_SOURCE=hosting needs TRUST_PROXY');
    expect(problemsOf({ CLIENT_IP_SOURCE: 'hosting', TRUST_PROXY: '1' })).toEqual([]);
  });
});
