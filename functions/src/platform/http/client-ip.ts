import type { Request } from 'express';

// The caller's IP as Express sees it under TRUST_PROXY. The Functions emulator hands requests to the
// runtime over a unix socket, which has no remote address: that hop is local, so the nearest
// X-Forwarded-For entry (set by the client or a local proxy) is the caller, else "local".
export function clientIp(req: Request): string {
  if (req.ip) return req.ip;
  if (req.socket?.remoteAddress === undefined) {
    const forwarded = req.get('x-forwarded-for')?.split(',').map((s) => s.trim()).filter(Boolean);
    return forwarded?.at(-1) ?? 'local';
  }
  return 'unknown';
}
