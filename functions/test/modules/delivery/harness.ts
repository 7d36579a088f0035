import { randomUUID } from 'node:crypto';
import type { Transaction } from 'firebase-admin/firestore';
import { buildApp } from '../../../src/app';
import { deliverySettings, type DeliverySettings } from '../../../src/modules/delivery/delivery.config';
import { deliveryModule } from '../../../src/modules/delivery/delivery.module';
import type { DeliveryRecord } from '../../../src/modules/delivery/delivery.model';
import type { JobPoolPort } from '../../../src/modules/delivery/delivery.ports';
import { quoteKeyOf } from '../../../src/modules/delivery/delivery.pricing';
import { deliveryRepo } from '../../../src/modules/delivery/delivery.repo';
import { deliveryRoutes } from '../../../src/modules/delivery/delivery.routes';
import { createDeliveryService, type DeliveryService } from '../../../src/modules/delivery/delivery.service';
import { attachableImage } from '../../../src/modules/media';
import { paymentCommands } from '../../../src/modules/payments';
import { db } from '../../../src/platform/core/firebase/firebase';
import { parseConfig } from '../../../src/platform/core/config';
import { distanceMeters } from '../../../src/platform/kits/geo/geo';
import { testIp, type ApiResponse } from '../../helpers/api';
import type { Tokens } from '../../helpers/accounts';
import { localSecret } from '../../helpers/emulators';
import { listen } from '../../helpers/http';

// The delivery API in this process with a double of the driver module's job pool (a Firestore document per driver,
// claimed in the parcel's own transaction like the real one) and recorded timers, so tests place drivers at will;
// the handover kit, payments, media and the ledger are the real ones (delivery-e2e uses the real job pool too).

export const config = parseConfig({
  ...process.env,
  JWT_SECRET: localSecret('JWT_SECRET'),
  JWT_REFRESH_SECRET: localSecret('JWT_REFRESH_SECRET'),
  TRUST_PROXY: 'true',
  LOG_REQUESTS: 'false',
});

/** A driver in the job-pool double: where they are, whether they take jobs, the job they are on. */
export interface PoolDriver {
  userId: string;
  lat: number;
  lng: number;
  online: boolean;
  capabilities: string[];
  jobId: string | null;
  kind: 'ORDER' | 'DELIVERY' | null;
  customerId: string | null;
  sharedWith: string | null;
  /** When the position was last written. */
  locatedAt: number;
  /** Give-ups the double counted, and until when it offers the driver nothing. */
  gaveUps?: number;
  cooldownUntil?: number;
}

/** The job pool's double: each test's drivers in a collection of their own, claimed in the caller's transaction. */
export function jobPoolDouble() {
  const drivers = db().collection('test_job_pool').doc(randomUUID()).collection('drivers');
  const ref = (id: string) => drivers.doc(id);
  const free = (d: PoolDriver, capability: string, at = Date.now()) =>
    d.online && !d.jobId && d.capabilities.includes(capability) && (d.cooldownUntil ?? 0) <= at;
  const port: JobPoolPort = {
    async nearbyAvailable(center, radiusM, capability, limit, at, options) {
      const all = (await drivers.get()).docs.map((d) => d.data() as PoolDriver);
      return all
        .filter((d) => free(d, capability, at) && !(options?.exclude ?? []).includes(d.userId))
        .map((d) => ({ userId: d.userId, lat: d.lat, lng: d.lng, distanceM: Math.round(distanceMeters(center, d)) }))
        .filter((d) => d.distanceM <= radiusM)
        .sort((a, b) => a.distanceM - b.distanceM)
        .slice(0, limit);
    },
    async txRead(tx: Transaction, driverId: string) {
      const snap = await tx.get(ref(driverId));
      return snap.exists ? (snap.data() as PoolDriver) : undefined;
    },
    txClaim(tx, loc, job) {
      const d = loc as PoolDriver | undefined;
      if (!d) return undefined;
      if (d.jobId === job.jobId) return { lat: d.lat, lng: d.lng };
      if (!free(d, job.capability, job.at)) return undefined;
      tx.update(ref(d.userId), { jobId: job.jobId, kind: job.kind, customerId: job.customerId, sharedWith: null });
      return { lat: d.lat, lng: d.lng };
    },
    txShareWithCustomer(tx, loc, jobId) {
      const d = loc as PoolDriver | undefined;
      if (d?.jobId === jobId) tx.update(ref(d.userId), { sharedWith: d.customerId });
    },
    txRelease(tx, loc, jobId, _at, gaveUp) {
      const d = loc as PoolDriver | undefined;
      const penalty = gaveUp ? { gaveUps: (d?.gaveUps ?? 0) + 1, cooldownUntil: gaveUp.cooldownUntil } : {};
      if (d?.jobId === jobId) tx.update(ref(d.userId), { jobId: null, kind: null, customerId: null, sharedWith: null, ...penalty });
    },
    async currentJob(driverId) {
      const d = (await ref(driverId).get()).data() as PoolDriver | undefined;
      return d?.jobId && d.kind ? { kind: d.kind, id: d.jobId } : null;
    },
    async lastPosition(driverId, tx) {
      const snap = tx ? await tx.get(ref(driverId)) : await ref(driverId).get();
      const d = snap.data() as PoolDriver | undefined;
      return d ? { lat: d.lat, lng: d.lng, at: d.locatedAt } : null;
    },
  };
  return {
    port,
    /** The driver ONLINE and free at `at` with the DELIVERY capability (or the ones given). */
    async online(userId: string, at: { lat: number; lng: number }, capabilities = ['RIDE', 'COURIER', 'DELIVERY']) {
      const d: PoolDriver = { userId, ...at, online: true, capabilities, jobId: null, kind: null, customerId: null, sharedWith: null, locatedAt: Date.now() };
      await ref(userId).set(d);
    },
    state: async (userId: string) => (await ref(userId).get()).data() as PoolDriver,
    /** The driver reports a position (`ageMs`: written that long ago), keeping their job. */
    moveTo: (userId: string, at: { lat: number; lng: number }, ageMs = 0) => ref(userId).update({ lat: at.lat, lng: at.lng, locatedAt: Date.now() - ageMs }),
    /** The driver taken by another job (an order, a ride elsewhere). */
    busy: (userId: string, jobId: string) => ref(userId).update({ jobId, kind: 'ORDER', customerId: 'someone' }),
  };
}

export interface Scheduled {
  queue: 'noDriver' | 'dispatch' | 'pickup';
  id: string;
  delaySec: number;
  phase?: string;
  payload?: unknown;
}

/** The delivery service on the doubles, with its own clock, served by an app of its own. */
export async function deliveryHarness(overrides: Partial<DeliverySettings> = {}) {
  const pool = jobPoolDouble();
  const scheduled: Scheduled[] = [];
  let shift = 0;
  const now = () => Date.now() + shift;
  const service: DeliveryService = createDeliveryService({
    jobs: pool.port,
    photos: attachableImage,
    payments: paymentCommands(config),
    settings: { ...deliverySettings(config), ...overrides },
    quoteKey: quoteKeyOf(config.JWT_SECRET),
    schedulers: {
      noDriver: { schedule: async (id, delaySec, phase, payload) => void scheduled.push({ queue: 'noDriver', id, delaySec, phase, payload }) },
      dispatch: { schedule: async (id, delaySec, phase, payload) => void scheduled.push({ queue: 'dispatch', id, delaySec, phase, payload }) },
      pickup: { schedule: async (id, delaySec, phase, payload) => void scheduled.push({ queue: 'pickup', id, delaySec, phase, payload }) },
    },
    now,
  });
  const module = { ...deliveryModule, routes: (ctx: Parameters<typeof deliveryRoutes>[0]) => deliveryRoutes(ctx, () => service) };
  const server = await listen(buildApp({ config, modules: [module] }).app);

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are whatever the API answers; tests narrow them
  async function send<T = any>(method: string, path: string, opts: { token?: string; body?: unknown; key?: string } = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { 'x-forwarded-for': testIp(), 'accept-language': 'en' };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.key) headers['idempotency-key'] = opts.key;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const started = performance.now();
    const res = await fetch(`${server.url}/api/v1${path}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T, headers: res.headers, ms: performance.now() - started };
  }

  return {
    service,
    pool,
    scheduled,
    send,
    /** Moves this harness's clock (the service's, not Firestore's or the payments'). */
    advance: (ms: number) => void (shift += ms),
    /** Back to the real time (each test that moves the clock starts from it). */
    resetClock: () => void (shift = 0),
    stored: (id: string) => deliveryRepo.get(id) as Promise<DeliveryRecord>,
    close: () => server.close(),
  };
}

export type Harness = Awaited<ReturnType<typeof deliveryHarness>>;

/** A route with the shape the app sends: a quote body around `here`. */
export function route(here: { near(n: number, e?: number): { lat: number; lng: number } }, km = 3, size = 'SMALL', codAmount?: number) {
  return {
    pickup: { ...here.near(0), address: '12 Nguyễn Huệ, Bến Nghé, Quận 1' },
    dropoff: { ...here.near(km * 1000 * 0.6, km * 1000 * 0.8), address: '45 Lê Văn Sỹ, Phường 13, Quận 3' },
    size,
    ...(codAmount === undefined ? {} : { codAmount }),
  };
}

export const RECIPIENT = { name: 'Trần Thị Mai', phone: '0912 345 678' };
export const SENDER = { phone: '0987 654 321' };

/** Quotes and places a parcel for `sender`; the answer of POST /delivery/orders. */
export async function placeParcel(
  h: Harness,
  sender: Tokens,
  here: { near(n: number, e?: number): { lat: number; lng: number } },
  opts: { paymentMethod?: 'CASH' | 'WALLET'; codAmount?: number; key?: string; km?: number } = {},
) {
  const quote = await h.send('POST', '/delivery/quote', { token: sender.accessToken, body: route(here, opts.km ?? 3, 'SMALL', opts.codAmount) });
  if (quote.status !== 200) throw new Error(`quote ${quote.status}: ${JSON.stringify(quote.body)}`);
  return h.send('POST', '/delivery/orders', {
    token: sender.accessToken,
    key: opts.key ?? randomUUID(),
    body: {
      quoteId: quote.body.quoteId,
      sender: SENDER,
      recipient: RECIPIENT,
      parcel: { description: 'A box of documents' },
      paymentMethod: opts.paymentMethod ?? 'CASH',
    },
  });
}
