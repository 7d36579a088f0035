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
// local, so the nearest X-Forwarded-For entry (set by the client or a local proxy) is the caller, else "local". Only
// there (FUNCTIONS_EMULATOR=true, or a server listening on a unix socket): a TCP connection reset before the request
// is read has no remote address either, and is keyed on "unknown", never on what its headers say.
//
// Addresses are canonical (IPv4-mapped IPv6 as IPv4, IPv6 in RFC 5952's form), so one address has one spelling in
// sessions, logs and rate-limit keys. Per-IP rate limits key IPv6 callers on their /64 (ipRateLimitSubject): one
// subscriber gets a whole /64 and could otherwise rotate through it.
//
// Residual risk of `hosting`: every Fastly customer's service sends from the same edges, and Fastly keeps a
// Fastly-Client-IP the client sent unless the service overwrites it, so someone with their own Fastly service can
// choose the address per request. The rate limiter therefore also counts each edge (clientEdge) in one aggregate
// bucket (HOSTING_EDGE_LIMIT_FACTOR × the route's limit); App Check (APP_CHECK=enforce) is the real defence.

export const CLIENT_IP_SOURCES = ['direct', 'hosting', 'socket'] as const;
export type ClientIpSource = (typeof CLIENT_IP_SOURCES)[number];

// Fastly's published ranges (https://api.fastly.com/public-ip-list), Firebase Hosting's CDN: the default of
// HOSTING_EDGE_RANGES.
export const FASTLY_EDGE_RANGES: readonly string[] = [
  '23.235.32.0/20',
  '43.249.72.0/22',
  '103.244.50.0/24',
  '103.245.222.0/23',
  '103.245.224.0/24',
  '104.156.80.0/20',
  '140.248.64.0/18',
  '140.248.128.0/17',
  '146.75.0.0/17',
  '151.101.0.0/16',
  '157.52.64.0/18',
  '167.82.0.0/17',
  '167.82.128.0/20',
  '167.82.160.0/20',
  '167.82.224.0/20',
  '172.111.64.0/18',
  '185.31.16.0/22',
  '199.27.72.0/21',
  '199.232.0.0/16',
  '2a04:4e40::/32',
  '2a04:4e42::/32',
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

// RFC 5952: lower case, no leading zeros, the first longest run (of two or more) of zero groups written `::`.
function formatIpv6(groups: readonly number[]): string {
  let bestAt = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) [bestAt, bestLength] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestAt === -1) return hex.join(':');
  return `${hex.slice(0, bestAt).join(':')}::${hex.slice(bestAt + bestLength).join(':')}`;
}

// The eight 16-bit groups of an address isIP() accepts as IPv6 (zone id dropped).
function ipv6Groups(address: string): number[] {
  let text = address.split('%')[0].toLowerCase();
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const [a, b, c, d] = tail.split('.').map(Number);
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  const part = (half: string) => (half === '' ? [] : half.split(':').map((g) => parseInt(g, 16)));
  if (halves.length === 1) return part(text);
  const left = part(halves[0]);
  const right = part(halves[1]);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * One spelling per address: IPv4 as is, IPv4-mapped IPv6 (Express's `::ffff:a.b.c.d` for IPv4 peers of a
 * dual-stack socket) as IPv4, other IPv6 in RFC 5952's form. Anything that is no address is returned unchanged.
 */
export function canonicalIp(address: string): string {
  if (isIP(address) !== 6) return address;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) return `${groups[6] >> 8}.${groups[6] & 255}.${groups[7] >> 8}.${groups[7] & 255}`;
  return formatIpv6(groups);
}

/** What per-IP rate limits count: an IPv4 address, or the /64 of an IPv6 one (the block one subscriber gets). */
export function ipRateLimitSubject(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  return `${formatIpv6([...ipv6Groups(ip).slice(0, 4), 0, 0, 0, 0])}/64`;
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

// A request without a remote address is a local hop only in the Functions emulator (its unix socket) or on a server
// listening on a unix socket; elsewhere it is a TCP connection reset before the request was read.
function arrivedLocally(req: Request): boolean {
  if (process.env.FUNCTIONS_EMULATOR === 'true') return true;
  const server = (req.socket as { server?: { address(): unknown } } | undefined)?.server;
  return typeof server?.address() === 'string';
}

/** The address under TRUST_PROXY (`direct`), with the emulator's unix socket read as a local hop. */
function proxiedIp(req: Request): string {
  if (req.ip) return canonicalIp(req.ip);
  if (req.socket?.remoteAddress === undefined && arrivedLocally(req)) {
    const forwarded = req
      .get('x-forwarded-for')
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    return forwarded?.at(-1) !== undefined ? canonicalIp(forwarded.at(-1)!) : 'local';
  }
  return 'unknown';
}

function socketIp(req: Request): string {
  const address = req.socket?.remoteAddress;
  if (address === undefined) return arrivedLocally(req) ? 'local' : 'unknown';
  return canonicalIp(address);
}

export interface ClientIpOptions {
  source: ClientIpSource;
  /** The CDN edges whose Fastly-Client-IP is believed (`hosting` only). */
  hostingEdges?: readonly string[];
}

/**
 * The caller's address, and under `hosting` the CDN edge that vouched for it (its Fastly-Client-IP was believed):
 * per-IP rate limits also count that edge, since anyone's Fastly service can put any address in that header.
 */
export interface ClientAddress {
  ip: string;
  edge?: string;
}

export type ClientIpResolver = (req: Request) => ClientAddress;

export function createClientIpResolver(options: ClientIpOptions): ClientIpResolver {
  if (options.source === 'socket') return (req) => ({ ip: socketIp(req) });
  if (options.source === 'direct') return (req) => ({ ip: proxiedIp(req) });
  const isEdge = matcher(options.hostingEdges ?? FASTLY_EDGE_RANGES);
  let warned = false;
  return (req) => {
    const peer = proxiedIp(req);
    const claimed = req.get('fastly-client-ip')?.trim();
    if (claimed === undefined || claimed === '') return { ip: peer };
    if (!isEdge(peer)) {
      // A direct call with the header, or an edge outside HOSTING_EDGE_RANGES (then every user shares its bucket):
      // said once per instance, so a change of Hosting's edges shows in the log.
      if (!warned) logger.warn('Fastly-Client-IP ignored: the request did not come from a Hosting edge (HOSTING_EDGE_RANGES)', { peer });
      warned = true;
      return { ip: peer };
    }
    return isIP(claimed) !== 0 ? { ip: canonicalIp(claimed), edge: peer } : { ip: peer };
  };
}

const directResolver = createClientIpResolver({ source: 'direct' });

function clientAddress(req: Request): ClientAddress {
  const locals = req.res?.locals;
  if (!locals) return directResolver(req);
  if (locals.clientAddress === undefined) locals.clientAddress = ((locals.resolveClientIp as ClientIpResolver | undefined) ?? directResolver)(req);
  return locals.clientAddress as ClientAddress;
}

/** The caller's IP as the app's CLIENT_IP_SOURCE derives it (requestContext hands the resolver over), once per request. */
export function clientIp(req: Request): string {
  return clientAddress(req).ip;
}

/** The Hosting edge whose Fastly-Client-IP gave clientIp (CLIENT_IP_SOURCE=hosting), else undefined. */
export function clientEdge(req: Request): string | undefined {
  return clientAddress(req).edge;
}
