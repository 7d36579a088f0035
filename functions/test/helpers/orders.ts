import { randomUUID } from 'node:crypto';
import type { Transaction } from 'firebase-admin/firestore';
import { buildApp } from '../../src/app';
import { orderCommands, type OrderDraft, type SellerRef } from '../../src/modules/orders';
import type { CourierState, OrderPorts } from '../../src/modules/orders/orders.ports';
import { orderSettings } from '../../src/modules/orders/orders.config';
import type { OrdersDeps } from '../../src/modules/orders/orders.context';
import { ordersRepo } from '../../src/modules/orders/orders.repo';
import { createOrdersService } from '../../src/modules/orders/orders.service';
import { bindOrderPorts, ordersServiceFor } from '../../src/modules/orders/orders.wiring';
import { confirmDeadline, courierDeadline, pickupDeadline } from '../../src/modules/orders/orders.deadline';
import { paymentCommands } from '../../src/modules/payments';
import { PARTNER_MEMBERS } from '../../src/modules/partners/partners.model';
import { parseConfig, type AppConfig } from '../../src/platform/core/config';
import { db, inTransaction } from '../../src/platform/core/firebase/firebase';
import { distanceMeters } from '../../src/platform/kits/geo/geo';
import { vnd } from '../../src/platform/kits/money/money';
import { adminTokens, registerVerified, type Tokens } from './accounts';
import { driverAccount } from './drivers';
import { requireEmulators } from './emulators';
import { activePartner, staffOf } from './partners';
import { call as sharedCall, testIp, type ApiResponse } from './api';
import { around, spotIn } from './geo';
import { jpeg } from './images';
import { listen } from './http';
import { functionsEnv } from './functions-env';
import { postTopUp } from './wallet';

// The orders module's test driver: doubles of its neighbours (merchants' sellers, the driver module's job pool,
// promotions' voucher release, partner members) on the Firestore emulator, so tests set stores and couriers at will
// while transactions, races and at-least-once work stay real (test/modules/commerce runs the real neighbours).

/**
 * Where the doubles' stores stand (an order's pickup): Điện Biên Phủ, north of area()'s grid (8–20.5° N, where other
 * tests' real couriers live) and far from the demo cities' drivers. The deployed triggers run an order of the
 * doubles with the real ports too: their courier search finds nobody here to claim behind the test's back.
 */
export const STORE_AT = { lat: 21.386, lng: 103.023 };
/** A point `dNorthM` metres north and `dEastM` east of the doubles' stores. */
export const nearStore = around(STORE_AT.lat, STORE_AT.lng).near;

/**
 * A spot of its own for a store a test opens itself (like area(), with points around it), in the far north beside
 * the doubles' stores (test/helpers/geo.ts, grid `stores`), away from area()'s grid: real couriers of other tests
 * live in there.
 */
export const storeArea = () => spotIn('stores');

/** Stock the sellers double keeps: `{storeId}_{itemKey}` → quantity given back. */
export const TEST_STOCK = 'test_order_stock';
/** The couriers double's pool: one document per courier (position, job, whom it is shared with). */
export const TEST_COURIERS = 'test_couriers';

type CourierDoc = {
  userId: string;
  lat: number;
  lng: number;
  locatedAt: number;
  jobId: string | null;
  customerId: string | null;
  sharedWith: string | null;
  /** Give-ups the double counted, and until when it offers the courier nothing. */
  gaveUps?: number;
  cooldownUntil?: number;
};

export function orderDoubles() {
  const stores = new Map<string, string>();
  const couriers = new Set<string>();
  const released: string[] = [];
  const courierRef = (id: string) => db().collection(TEST_COURIERS).doc(id);
  const ports: OrderPorts = {
    sellers: {
      // Every store of the doubles takes orders (the placing guards' tests bind their own).
      async get(ref) {
        return stores.has(ref.id) ? { name: 'Phở Hòa Pasteur', accepting: true, openNow: true, paused: false } : undefined;
      },
      async staffRole(ref, userId, tx) {
        const partnerId = stores.get(ref.id);
        if (!partnerId) return undefined;
        const member = db().collection(PARTNER_MEMBERS).doc(`${partnerId}_${userId}`);
        const snap = tx ? await tx.get(member) : await member.get();
        return snap.exists ? (snap.get('role') as 'OWNER' | 'STAFF') : undefined;
      },
      async txGiveBack(tx, ref, lines) {
        const refs = lines.map((l) => db().collection(TEST_STOCK).doc(`${ref.id}_${l.itemKey}`));
        const snaps = await tx.getAll(...refs);
        return () => snaps.forEach((s, i) => tx.set(refs[i], { returned: ((s.get('returned') as number | undefined) ?? 0) + lines[i].quantity }));
      },
    },
    couriers: {
      async nearbyAvailable(center, radiusM, _capability, limit, at, options) {
        const snaps = couriers.size ? await db().getAll(...[...couriers].map(courierRef)) : [];
        return snaps
          .map((s) => s.data() as CourierDoc)
          .filter((c) => c && c.jobId === null && (c.cooldownUntil ?? 0) <= at && !(options?.exclude ?? []).includes(c.userId))
          .map((c) => ({ userId: c.userId, lat: c.lat, lng: c.lng, distanceM: Math.round(distanceMeters(center, c)) }))
          .filter((c) => c.distanceM <= radiusM)
          .sort((a, b) => a.distanceM - b.distanceM)
          .slice(0, limit);
      },
      async txRead(tx, driverId) {
        const snap = await tx.get(courierRef(driverId));
        return snap.exists ? (snap.data() as CourierDoc) : undefined;
      },
      txClaim(tx, loc, job) {
        const c = loc as CourierDoc | undefined;
        if (!c || c.jobId !== null || (c.cooldownUntil ?? 0) > job.at) return undefined;
        tx.update(courierRef(c.userId), { jobId: job.jobId, customerId: job.customerId });
        return { lat: c.lat, lng: c.lng };
      },
      txShareWithCustomer(tx, loc, jobId) {
        const c = loc as CourierDoc | undefined;
        if (c?.jobId === jobId) tx.update(courierRef(c.userId), { sharedWith: c.customerId });
      },
      txRelease(tx, loc, jobId, _at, gaveUp) {
        const c = loc as CourierDoc | undefined;
        const penalty = gaveUp ? { gaveUps: (c?.gaveUps ?? 0) + 1, cooldownUntil: gaveUp.cooldownUntil } : {};
        if (c?.jobId === jobId) tx.update(courierRef(c.userId), { jobId: null, customerId: null, sharedWith: null, ...penalty });
      },
      async currentJob(driverId) {
        const snap = await courierRef(driverId).get();
        const jobId = snap.get('jobId') as string | null | undefined;
        return jobId ? { kind: 'ORDER', id: jobId } : null;
      },
      async lastPosition(driverId, tx) {
        const snap = tx ? await tx.get(courierRef(driverId)) : await courierRef(driverId).get();
        const c = snap.data() as CourierDoc | undefined;
        return c ? { lat: c.lat, lng: c.lng, at: c.locatedAt } : null;
      },
    },
    promotions: {
      async releaseFor(reference) {
        released.push(reference);
      },
    },
    partners: {
      async members(partnerId) {
        const snap = await db().collection(PARTNER_MEMBERS).where('partnerId', '==', partnerId).get();
        return snap.docs.map((d) => ({ userId: d.get('userId') as string, role: d.get('role') as 'OWNER' | 'STAFF' }));
      },
    },
  };
  return {
    ports,
    /** Vouchers given back (references). */
    released,
    /** A store of the partner (a merchant unless told). */
    store(partnerId: string, kind: SellerRef['kind'] = 'MERCHANT'): SellerRef {
      const ref = { kind, id: `store-${randomUUID().slice(0, 12)}` };
      stores.set(ref.id, partnerId);
      return ref;
    },
    /** A free courier at a point; `alone`: the only one in the pool from now (earlier ones leave it). */
    async courier(userId: string, at: { lat: number; lng: number }, alone = false): Promise<void> {
      if (alone) couriers.clear();
      couriers.add(userId);
      await courierRef(userId).set({ userId, lat: at.lat, lng: at.lng, locatedAt: Date.now(), jobId: null, customerId: null, sharedWith: null });
    },
    /** The courier reports a position (`ageMs`: written that long ago), keeping their job. */
    moveCourier: (userId: string, at: { lat: number; lng: number }, ageMs = 0) =>
      courierRef(userId).update({ lat: at.lat, lng: at.lng, locatedAt: Date.now() - ageMs }),
    courierState: async (userId: string) => (await courierRef(userId).get()).data() as CourierDoc,
    /** What the store got back of one item. */
    returned: async (store: SellerRef, itemKey: string) =>
      ((await db().collection(TEST_STOCK).doc(`${store.id}_${itemKey}`).get()).get('returned') as number) ?? 0,
  };
}
export type OrderDoubles = ReturnType<typeof orderDoubles>;
export type { CourierState };

/** The configuration the in-process API runs with (process env, then the functions/.env files, then the secrets). */
export const stackConfig = (): Readonly<AppConfig> => parseConfig(functionsEnv());

/** A timer an orders service asked for: its queue, the order, the delay and the phase (search round, assignment). */
export type Armed = { queue: 'confirm' | 'courier' | 'pickup'; id: string; delaySec: number; phase?: string };

/** Schedulers that record what they are asked to arm, queueing nothing (a service built by a test takes them). */
export function recordingSchedulers(armed: Armed[] = []) {
  const recorder = (queue: Armed['queue']) => ({
    schedule: async (id: string, delaySec: number, phase?: string) => void armed.push({ queue, id, delaySec, phase }),
  });
  return { armed, schedulers: { confirm: recorder('confirm'), courier: recorder('courier'), pickup: recorder('pickup') } };
}

/**
 * The deadlines' own schedulers, which the wiring's service uses, replaced in this test file by recorders: no timer of
 * the test's process queues a task the Functions emulator would run with the real ports (racing the doubles).
 */
function recordTimers(armed: Armed[]): void {
  const { schedulers } = recordingSchedulers(armed);
  jest.spyOn(confirmDeadline.scheduler, 'schedule').mockImplementation(schedulers.confirm.schedule);
  jest.spyOn(courierDeadline.scheduler, 'schedule').mockImplementation(schedulers.courier.schedule);
  jest.spyOn(pickupDeadline.scheduler, 'schedule').mockImplementation(schedulers.pickup.schedule);
  // Never restored: each test file has its own module registry (jest's default), so the spies end with the file.
}

/**
 * The API built in-process with the orders ports bound to the doubles, its timers recorded in `armed`; tokens of the
 * shared API work on it.
 */
export async function ordersApp(doubles: OrderDoubles, armed: Armed[] = []) {
  const config = stackConfig();
  bindOrderPorts(config, doubles.ports);
  recordTimers(armed);
  const server = await listen(buildApp({ config }).app);
  const ip = testIp();
  async function call<T = any>( // eslint-disable-line @typescript-eslint/no-explicit-any
    method: string,
    url: string,
    opts: { body?: unknown; token?: Tokens; headers?: Record<string, string> } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { 'x-forwarded-for': ip, 'accept-language': 'en', ...(opts.headers ?? {}) };
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    if (opts.token) headers.authorization = `Bearer ${opts.token.accessToken}`;
    const started = performance.now();
    const res = await fetch(`${server.url}/api/v1${url}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, body: body as T, headers: res.headers, ms: performance.now() - started };
  }
  const payments = paymentCommands(config);
  /**
   * The orders service on the doubles with its clock moved by `shiftMs` (a timer's view, or a read made later); the
   * timers it arms are recorded in `asked`, never queued.
   */
  const shifted = (shiftMs: number, asked: Armed[] = [], extra: Pick<OrdersDeps, 'media'> = {}) =>
    createOrdersService({
      ports: doubles.ports,
      payments,
      settings: orderSettings(config),
      schedulers: recordingSchedulers(asked).schedulers,
      now: () => Date.now() + shiftMs,
      ...extra,
    });
  return { config, base: server.url, call, close: server.close, service: ordersServiceFor(config), commands: orderCommands(config), payments, armed, shifted };
}
export type OrdersApp = Awaited<ReturnType<typeof ordersApp>>;

/** Two lines: 2 bowls of phở and an iced coffee; 35,000 delivery, 5,000 service, total 135,000 (less a discount). */
export function draftOf(
  consumerId: string,
  partnerId: string,
  store: SellerRef,
  opts: { id?: string; payment?: OrderDraft['payment']; at?: number; discount?: number; voucher?: OrderDraft['voucher'] } = {},
): OrderDraft {
  const discount = opts.discount ?? 0;
  return {
    id: opts.id ?? `o-${randomUUID().slice(0, 16)}`,
    consumerId,
    seller: store,
    partnerId,
    sellerName: 'Phở Hòa Pasteur',
    pickup: { ...STORE_AT, address: '12 Võ Nguyên Giáp, TP. Điện Biên Phủ' },
    dropoff: {
      ...nearStore(-300, 1_350),
      address: '5 Hoàng Văn Thái, TP. Điện Biên Phủ',
      recipientName: 'Lan',
      phone: '+84901234567',
      note: 'Gọi khi tới',
      addressId: null,
    },
    distanceM: 1_400,
    lines: [
      { itemKey: 'pho-bo', name: 'Phở bò tái', quantity: 2, unitPriceVnd: 40_000, lineTotalVnd: 80_000, options: [], requiresPrescription: false },
      {
        itemKey: 'ca-phe-sua',
        name: 'Cà phê sữa đá',
        quantity: 1,
        unitPriceVnd: 15_000,
        lineTotalVnd: 15_000,
        options: [{ group: 'size', groupName: 'Cỡ', choices: [{ key: 'l', name: 'Lớn', priceDeltaVnd: 0 }] }],
        requiresPrescription: false,
      },
    ],
    pricing: { itemsVnd: 95_000, deliveryFeeVnd: 35_000, serviceFeeVnd: 5_000, discountVnd: discount, totalVnd: 135_000 - discount },
    voucher: opts.voucher ?? null,
    payment: opts.payment ?? { method: 'CASH', provider: null, paymentId: null },
    prescriptionMediaId: null,
    note: null,
    prepTimeMin: 15,
    at: opts.at ?? Date.now(),
  };
}

/** Places the draft as checkout does: in a transaction that checked the id is new. */
export async function place(app: OrdersApp, draft: OrderDraft): Promise<OrderDraft> {
  await inTransaction(async (tx: Transaction) => {
    if (await app.commands.txExists(tx, draft.id)) throw new Error(`order ${draft.id} exists`);
    app.commands.txPlace(tx, draft);
  });
  return draft;
}

/** A wallet-paid order: the consumer topped up, the total held for the order, then placed. */
export async function walletOrder(app: OrdersApp, consumer: Tokens, partnerId: string, store: SellerRef, opts: Parameters<typeof draftOf>[3] = {}) {
  const draft = draftOf(consumer.user.id, partnerId, store, opts);
  await postTopUp(consumer, draft.pricing.totalVnd);
  const hold = await app.payments.hold({
    payerId: consumer.user.id,
    amount: vnd(draft.pricing.totalVnd),
    purpose: 'ORDER',
    ref: { type: 'ORDER', id: draft.id },
    description: 'Order',
    idempotencyKey: draft.id,
  });
  return place(app, { ...draft, payment: { method: 'WALLET', provider: null, paymentId: hold.id } });
}

/** A gateway order: its payment opened at the provider (MOCK pays at once; VNPAY waits for its notice), then placed. */
export async function gatewayOrder(app: OrdersApp, consumer: Tokens, partnerId: string, store: SellerRef, provider: 'MOCK' | 'VNPAY' = 'MOCK') {
  const draft = draftOf(consumer.user.id, partnerId, store);
  const payment = await app.payments.charge({
    payerId: consumer.user.id,
    amount: vnd(draft.pricing.totalVnd),
    purpose: 'ORDER',
    ref: { type: 'ORDER', id: draft.id },
    method: 'GATEWAY',
    provider,
    description: 'Order',
    idempotencyKey: draft.id,
  });
  await place(app, { ...draft, payment: { method: 'GATEWAY', provider, paymentId: payment.id } });
  return { draft, payment };
}

/** The people of an orders test: an administrator, the store's owner and staff, a rival partner, two consumers, drivers. */
export async function orderCast(doubles: OrderDoubles) {
  const admin = await adminTokens();
  const [owner, rival, consumer, other, stranger] = await Promise.all([
    activePartner('Phở Hòa Pasteur', admin),
    activePartner('Bún Chả Hương Liên', admin),
    registerVerified({ name: 'Lan' }),
    registerVerified({ name: 'Minh' }),
    driverAccount(),
  ]);
  const staff = await staffOf(owner);
  return { admin, owner, rival, consumer, other, stranger, staff, store: doubles.store(owner.partnerId) };
}
export type OrderCast = Awaited<ReturnType<typeof orderCast>>;

/** A stand-in for what a `beforeAll` builds: reading it before then fails loudly. */
function setLater<T extends object>(what: string) {
  let value: T | undefined;
  const proxy = new Proxy({} as T, {
    get(_target, key) {
      if (value === undefined) throw new Error(`${what} is built in beforeAll: read it inside a test or hook`);
      return Reflect.get(value, key) as unknown;
    },
  });
  return { proxy, set: (v: T) => void (value = v), built: () => value };
}

/**
 * The set-up of an orders test file: the emulators required, the doubles, the in-process API over them (its timers
 * recorded in `armed`, never queued) and the cast, built once before the file's tests; the API closed after them.
 */
export function useOrdersApp() {
  const doubles = orderDoubles();
  const armed: Armed[] = [];
  const app = setLater<OrdersApp>('the orders app');
  const cast = setLater<OrderCast>('the orders cast');
  beforeAll(requireEmulators);
  beforeAll(async () => {
    app.set(await ordersApp(doubles, armed));
    cast.set(await orderCast(doubles));
  });
  afterAll(async () => app.built()?.close());
  return { doubles, armed, app: app.proxy, cast: cast.proxy };
}

/** A courier account, free near the store and the only one in the doubles' pool (the next search finds it). */
export async function freeCourier(doubles: OrderDoubles, at = nearStore(30, 20)) {
  const courier = await driverAccount();
  await doubles.courier(courier.user.id, at, true);
  return courier;
}

const STEPS = ['CONFIRMED', 'PREPARING', 'READY_FOR_PICKUP', 'COURIER_ASSIGNED', 'PICKED_UP', 'DELIVERED'] as const;
const PATHS = { CONFIRMED: 'confirm', PREPARING: 'preparing', READY_FOR_PICKUP: 'ready' } as const;

/** Moves a PLACED order on, step by step as its parties do, up to `to` (the courier search run at once). */
export async function advance(app: OrdersApp, cast: OrderCast, id: string, to: (typeof STEPS)[number], courier?: Tokens) {
  const now = (await ordersRepo.get(id))!.status;
  for (const step of STEPS.slice(STEPS.indexOf(now as (typeof STEPS)[number]) + 1, STEPS.indexOf(to) + 1)) {
    let res: ApiResponse | undefined;
    if (step in PATHS) res = await app.call('POST', `/orders/${id}/${PATHS[step as keyof typeof PATHS]}`, { token: cast.staff, body: {} });
    if (step === 'COURIER_ASSIGNED' && (await app.service.searchCourier(id)) !== 'assigned') throw new Error(`no courier for ${id}`);
    if (step === 'PICKED_UP') res = await app.call('POST', `/orders/${id}/pickup`, { token: courier });
    if (step === 'DELIVERED') {
      const code = (await ordersRepo.handover(id))!.code;
      res = await app.call('POST', `/orders/${id}/deliver`, { token: courier, body: { code } });
    }
    if (res && res.status !== 200) throw new Error(`${step}: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

/** One of `who`'s READY image uploads: a photo proving a hand-over (an order's or a parcel's). */
export async function handoverPhoto(who: Tokens): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([jpeg()], { type: 'image/jpeg' }), 'handover.jpg');
  const res = await sharedCall('POST', '/upload/image', { token: who.accessToken, form });
  if (res.status !== 201) throw new Error(`upload ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}
