import { BlockList, isIP } from 'node:net';
import type { Request } from 'express';
import { logger } from '../logging/logger';

// The caller's address, which per-IP rate limits (sign-in, codes), sessions and payment gateways key on. Where it
// comes from depends on what stands in front of the function (CLIENT_IP_SOURCE):
//
// - `direct` (default): the function's own URL. Google's front end appends the address it saw to X-Forwarded-For,
//   so the caller is the entry TRUST_PROXY hops from the right (Express's req.ip; 1 on Cloud Functions). Entries
//   further left are whatever the client sent. Without TRUST_PROXY it is the socket's peer.
// - `hosting`: through a Firebase Hosting rewrite. Hosting's CDN (Fastly) is the peer Google's front end saw, so
//   that entry is an edge of the CDN, shared by everyone behind it; the CDN puts the client in Fastly-Client-IP.
//   That header is read only when the peer is one of HOSTING_EDGE_RANGES: a call to the function's own URL
//   (bypassing Hosting) with a made-up Fastly-Client-IP is keyed on its real address, as under `direct`.
// - `socket`: the TCP peer only, no header at all (a plain server with nothing in front).
//
// The Functions emulator hands requests to the runtime over a unix socket, which has no remote address: that hop is
// local, so the nearest X-Forwarded-For entry (set by the client or a local proxy) is the caller, else "local".

export const CLIENT_IP_SOURCES = ['direct', 'hosting', 'socket'] as const;
export type ClientIpSource = (typeof CLIENT_IP_SOURCES)[number];

// Fastly's published ranges (https://api.fastly.com/public-ip-list), Firebase Hosting's CDN: the default of
// HOSTING_EDGE_RANGES.
export const FASTLY_EDGE_RANGES: readonly string[] = [
  '23.235.32.0/20', '43.249.72.0/22', '103.244.50.0/24', '103.245.222.0/23', '103.245.224.0/24', '104.156.80.0/20',
  '140.248.64.0/18', '140.248.128.0/17', '146.75.0.0/17', '151.101.0.0/16', '157.52.64.0/18', '167.82.0.0/17',
  '167.82.128.0/20', '167.82.160.0/20', '167.82.224.0/20', '172.111.64.0/18', '185.31.16.0/22', '199.27.72.0/21',
  '199.232.0.0/16', '2a04:4e40::/32', '2a04:4e42::/32',
];

/** `a.b.c.d/n` or `ipv6/n`, as HOSTING_EDGE_RANGES takes them; undefined when malformed. */
export function parseCidr(text: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | undefined {
  const match = /^([^/\s]+)\/(\d{1,3})$/.exec(text.trim());
  const version = match ? isIP(match[1]) : 0;
  if (!match || version === 0) return undefined;
  const prefix = Number(match[2]);
  if (prefix > (version === 4 ? 32 : 128)) return undefined;
  return { address: match[1], prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

// Express reports IPv4 peers of a dual-stack socket as ::ffff:a.b.c.d.
function plain(address: string): string {
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice(7) : address;
}

function matcher(ranges: readonly string[]): (address: string) => boolean {
  const list = new BlockList();
  for (const range of ranges) {
    const cidr = parseCidr(range);
    if (cidr) list.addSubnet(cidr.address, cidr.prefix, cidr.family);
  }
  return (address) => {
    const version = isIP(address);
    return version !== 0 && list.check(address, version === 4 ? 'ipv4' : 'ipv6');
  };
}

/** The address under TRUST_PROXY (`direct`), with the emulator's unix socket read as a local hop. */
function proxiedIp(req: Request): string {
  if (req.ip) return plain(req.ip);
  if (req.socket?.remoteAddress === undefined) {
    const forwarded = req.get('x-forwarded-for')?.split(',').map((s) => s.trim()).filter(Boolean);
    return forwarded?.at(-1) ?? 'local';
  }
  return 'unknown';
}

function socketIp(req: Request): string {
  const address = req.socket?.remoteAddress;
  return address === undefined ? 'local' : plain(address);
}

export interface ClientIpOptions {
  source: ClientIpSource;
  /** The CDN edges whose Fastly-Client-IP is believed (`hosting` only). */
  hostingEdges?: readonly string[];
}

export type ClientIpResolver = (req: Request) => string;

export function createClientIpResolver(options: ClientIpOptions): ClientIpResolver {
  if (options.source === 'socket') return socketIp;
  if (options.source === 'direct') return proxiedIp;
  const isEdge = matcher(options.hostingEdges ?? FASTLY_EDGE_RANGES);
  let warned = false;
  return (req) => {
    const peer = proxiedIp(req);
    const claimed = req.get('fastly-client-ip')?.trim();
    if (claimed === undefined || claimed === '') return peer;
    if (!isEdge(peer)) {
      // A direct call with the header, or an edge outside HOSTING_EDGE_RANGES (then every user shares its bucket):
      // said once per instance, so a change of Hosting's edges shows in the log.
      if (!warned) logger.warn('Fastly-Client-IP ignored: the request did not come from a Hosting edge (HOSTING_EDGE_RANGES)', { peer });
      warned = true;
      return peer;
    }
    return isIP(claimed) !== 0 ? plain(claimed) : peer;
  };
}

const directResolver = createClientIpResolver({ source: 'direct' });

/** The caller's IP as the app's CLIENT_IP_SOURCE derives it (requestContext hands the resolver over), once per request. */
export function clientIp(req: Request): string {
  const locals = req.res?.locals;
  if (!locals) return directResolver(req);
  if (typeof locals.clientIp !== 'string') locals.clientIp = ((locals.resolveClientIp as ClientIpResolver | undefined) ?? directResolver)(req);
  return locals.clientIp as string;
}
