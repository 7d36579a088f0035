import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import type { Transaction } from 'firebase-admin/firestore';
import { buildApp } from '../../../src/app';
import { cartSettings, type CartSettings } from '../../../src/modules/cart/cart.config';
import type { OrderDraft, OrdersPort, PricedLine, Seller, SellerRef, SellersPort, LineRequest } from '../../../src/modules/cart/cart.ports';
import { cartRoutes } from '../../../src/modules/cart/cart.routes';
import { createCart, type CartServices } from '../../../src/modules/cart/cart.service';
import { cartPortsFor } from '../../../src/modules/cart/cart.wiring';
import { orderCommands, orderLinesFor } from '../../../src/modules/orders';
import { txCheckPlacing } from '../../../src/modules/orders/orders.place';
import type { OrdersService } from '../../../src/modules/orders/orders.service';
import { bindOrderPorts, ordersServiceFor } from '../../../src/modules/orders/orders.wiring';
import { orderDoubles } from '../../helpers/orders';
import { parseConfig, type AppConfig } from '../../../src/platform/core/config';
import { AppError, ConflictError, ValidationError } from '../../../src/platform/core/errors/app-error';
import type { ErrorCode } from '../../../src/platform/core/errors/codes';
import { db } from '../../../src/platform/core/firebase/firebase';
import { testIp, type ApiResponse } from '../../helpers/api';
import { listen } from '../../helpers/http';

// Doubles of the cart's two neighbours that arrive with issue 32's other parts, backed by real Firestore documents so
// that their transactional reads race for real: a store with a menu and stock (the merchants module's `sellers`) and
// an order placer (the orders module's `orderCommands`). Payments, promotions, media and saved addresses are the real
// faces. The app under test serves the cart's routes over these ports, against the emulators the API uses.

export const TEST_SELLERS = 'test_cart_sellers';
export const TEST_ORDERS = 'test_cart_orders';

export interface MenuItem {
  name: string;
  priceVnd: number;
  /** null: not counted. */
  stock: number | null;
  available: boolean;
  requiresPrescription: boolean;
  groups: Record<string, { name: string; min: number; max: number; choices: Record<string, { name: string; priceDeltaVnd: number }> }>;
}
export type StoreDoc = Omit<Seller, 'ref'> & { items: Record<string, MenuItem> };

const docOf = (ref: SellerRef) => db().collection(TEST_SELLERS).doc(`${ref.kind}_${ref.id}`);
const refusal = (status: number, code: string, message: string, details?: unknown) =>
  Object.assign(new AppError(status, message, details), { code: code as ErrorCode });

/** Prices lines as the merchants module does: unknown options are a 400 naming `lines.<i>.options.<j>…`; stock counted over all lines. */
function priceOn(store: StoreDoc, lines: LineRequest[]): PricedLine[] {
  const wanted = new Map<string, number>();
  const priced = lines.map((line, i) => {
    const item = store.items[line.itemKey];
    if (!item) throw new ValidationError('unknown item', [{ field: `lines.${i}.itemKey`, message: 'no such item at this seller' }]);
    if (!item.available) throw refusal(409, 'ITEM_UNAVAILABLE', `${line.itemKey} cannot be ordered now`, { itemKey: line.itemKey });
    wanted.set(line.itemKey, (wanted.get(line.itemKey) ?? 0) + line.quantity);
    const options = (line.options ?? []).map((o, j) => {
      const group = item.groups[o.group];
      if (!group) throw new ValidationError('unknown option group', [{ field: `lines.${i}.options.${j}.group`, message: 'no such option group' }]);
      if (o.choices.length > group.max)
        throw new ValidationError('too many choices', [{ field: `lines.${i}.options.${j}.choices`, message: `at most ${group.max}` }]);
      return {
        group: o.group,
        groupName: group.name,
        choices: o.choices.map((key, k) => {
          const choice = group.choices[key];
          if (!choice) throw new ValidationError('unknown choice', [{ field: `lines.${i}.options.${j}.choices.${k}`, message: 'no such choice' }]);
          return { key, name: choice.name, priceDeltaVnd: choice.priceDeltaVnd };
        }),
      };
    });
    const unit = item.priceVnd + options.reduce((sum, o) => sum + o.choices.reduce((s, c) => s + c.priceDeltaVnd, 0), 0);
    return {
      itemKey: line.itemKey,
      name: item.name,
      quantity: line.quantity,
      unitPriceVnd: unit,
      lineTotalVnd: unit * line.quantity,
      options,
      requiresPrescription: item.requiresPrescription,
      ...(line.note ? { note: line.note } : {}),
    };
  });
  for (const [key, quantity] of wanted) {
    const stock = store.items[key].stock;
    if (stock !== null && quantity > stock) throw refusal(409, 'OUT_OF_STOCK', `Only ${stock} of ${key} left`, { itemKey: key, available: stock });
  }
  return priced;
}

export const sellersDouble: SellersPort = {
  async get(ref, tx) {
    const snap = tx ? await tx.get(docOf(ref)) : await docOf(ref).get();
    if (!snap.exists) return undefined;
    const { items: _items, ...seller } = snap.data() as StoreDoc;
    return { ...seller, ref };
  },
  async quote(ref, lines) {
    const snap = await docOf(ref).get();
    if (!snap.exists) throw new ConflictError('no such store');
    return priceOn(snap.data() as StoreDoc, lines);
  },
  async txTake(tx, ref, lines) {
    const store = (await tx.get(docOf(ref))).data() as StoreDoc;
    const priced = priceOn(store, lines);
    return {
      lines: priced,
      take: () => {
        const fields: Record<string, number> = {};
        for (const line of lines) {
          const stock = store.items[line.itemKey].stock;
          if (stock !== null) fields[`items.${line.itemKey}.stock`] = (fields[`items.${line.itemKey}.stock`] ?? stock) - line.quantity;
        }
        if (Object.keys(fields).length > 0) tx.update(docOf(ref), fields);
      },
    };
  },
};

/** What the order double stores: the draft and the status the orders module gives it. */
export type PlacedOrder = OrderDraft & { status: 'PLACED' | 'AWAITING_PAYMENT' };

export const ordersDouble: OrdersPort = {
  txPlace(tx: Transaction, draft: OrderDraft) {
    const status = draft.payment.method === 'GATEWAY' && draft.payment.status !== 'SUCCEEDED' ? 'AWAITING_PAYMENT' : 'PLACED';
    tx.create(db().collection(TEST_ORDERS).doc(draft.id), { ...draft, status });
  },
  async view(orderId, viewerId) {
    const order = (await db().collection(TEST_ORDERS).doc(orderId).get()).data() as PlacedOrder | undefined;
    if (!order || order.consumerId !== viewerId) return undefined;
    return { id: order.id, status: order.status, pricing: order.pricing, lines: order.lines, payment: order.payment, voucher: order.voucher };
  },
  txExists: async (tx, orderId) => (await tx.get(db().collection(TEST_ORDERS).doc(orderId))).exists,
  // The orders module's own guard, over the store double (these orders live apart, so none counts as unconfirmed).
  txCheckPlacing: (tx, draft) => txCheckPlacing(tx, draft, { sellers: sellersDouble, settings: { maxPendingPerConsumer: 5 } }),
  async linesFor(orderId, consumerId) {
    const order = (await db().collection(TEST_ORDERS).doc(orderId).get()).data() as PlacedOrder | undefined;
    if (!order || order.consumerId !== consumerId) return undefined;
    const lines = order.lines.map((l) => ({
      itemKey: l.itemKey,
      name: l.name,
      quantity: l.quantity,
      options: l.options.map((o) => ({ group: o.group, choices: o.choices.map((c) => c.key) })),
      ...(l.note ? { note: l.note } : {}),
    }));
    return { seller: order.seller, lines };
  },
};

/**
 * The real orders module behind the cart (its placing guards, its orders in the orders collection, `orderLinesFor`),
 * its ports bound to doubles: the store double's `get`, and `staffOf` answering OWNER for one account.
 */
export function realOrders(staffOf: { userId?: string } = {}): { port: OrdersPort; service: OrdersService } {
  const config = apiConfig();
  bindOrderPorts(config, {
    ...orderDoubles().ports,
    sellers: {
      get: (ref, tx) => sellersDouble.get(ref, tx),
      staffRole: async (_ref, userId) => (userId === staffOf.userId ? 'OWNER' : undefined),
      txGiveBack: async () => () => undefined,
    },
  });
  return { port: { ...orderCommands(config), linesFor: orderLinesFor }, service: ordersServiceFor(config) };
}

export const storedOrder = async (id: string) => (await db().collection(TEST_ORDERS).doc(id).get()).data() as PlacedOrder | undefined;

/** A store near `at` (a merchant unless said), with the items given. */
export async function openStore(
  at: { lat: number; lng: number },
  items: Record<string, Partial<MenuItem>>,
  extra: Partial<StoreDoc> & { kind?: SellerRef['kind'] } = {},
) {
  const { kind = 'MERCHANT', ...fields } = extra;
  const ref: SellerRef = { kind, id: `store-${Math.random().toString(36).slice(2, 12)}` };
  const store: StoreDoc = {
    partnerId: `partner-${ref.id}`,
    name: 'Bún Chả Hương Liên',
    category: 'FOOD',
    lat: at.lat,
    lng: at.lng,
    address: '24 Lê Văn Hưu, Hai Bà Trưng, Hà Nội',
    deliveryRadiusM: 5_000,
    prepTimeMin: 15,
    minOrderVnd: 0,
    timeZone: 'Asia/Ho_Chi_Minh',
    openNow: true,
    paused: false,
    accepting: true,
    ...fields,
    items: Object.fromEntries(
      Object.entries(items).map(([key, item]) => [
        key,
        { name: key, priceVnd: 50_000, stock: null, available: true, requiresPrescription: false, groups: {}, ...item },
      ]),
    ),
  };
  await docOf(ref).set(store);
  return {
    ref,
    store,
    update: (fields: Record<string, unknown>) => docOf(ref).update(fields),
    read: async () => (await docOf(ref).get()).data() as StoreDoc,
    /** The store gone from the platform (the sellers face answers none). */
    remove: () => docOf(ref).delete(),
  };
}

function envFile(name: string): Record<string, string> {
  const file = path.join(__dirname, '..', '..', '..', name);
  return fs.existsSync(file) ? (parseEnv(fs.readFileSync(file, 'utf8')) as Record<string, string>) : {};
}
/** The configuration the API under test runs with (the Functions emulator's order), so tokens and gateways match. */
export function apiConfig(): Readonly<AppConfig> {
  const project = process.env.GCLOUD_PROJECT ?? 'demo-superapp';
  return parseConfig({ ...process.env, ...envFile('.env'), ...envFile(`.env.${project}`), ...envFile('.env.local'), ...envFile('.secret.local') });
}

/** A clock the test moves, and the checkout checks the service asked for. */
export const clock = { shift: 0, now: () => Date.now() + clock.shift };
export const scheduled: Array<{ id: string; delaySec: number; phase?: string }> = [];

/**
 * The cart's routes over the doubles, as an app listening on a port (`url` is its /api/v1). `overrides` replaces
 * ports (a payments port that fails on cue) and settings (small limits).
 */
export async function cartApp(overrides: { settings?: Partial<CartSettings>; ports?: Partial<ReturnType<typeof cartPortsFor>> } = {}) {
  const config = apiConfig();
  const services: CartServices = createCart({
    ...cartPortsFor(config),
    sellers: sellersDouble,
    orders: ordersDouble,
    ...overrides.ports,
    settings: { ...cartSettings(config), ...overrides.settings },
    scheduler: { schedule: async (id, delaySec, phase) => void scheduled.push({ id, delaySec, phase }) },
    now: clock.now,
  });
  const { app } = buildApp({ config, modules: [{ name: 'cart', routes: (ctx) => cartRoutes(ctx, services) }] });
  const server = await listen(app);
  return { url: `${server.url}/api/v1`, services, close: server.close };
}

/** A request to the cart app as the test client sends it (`call` of test/helpers/api, another base URL). */
export async function send(
  base: string,
  method: string,
  route: string,
  opts: { token?: string; body?: unknown; key?: string; headers?: Record<string, string> } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { 'x-forwarded-for': testIp(), 'accept-language': 'en', ...(opts.headers ?? {}) };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.key) headers['idempotency-key'] = opts.key;
  const started = performance.now();
  const res = await fetch(`${base}${route}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body, headers: res.headers, ms: performance.now() - started };
}
