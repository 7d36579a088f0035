import { randomUUID } from 'node:crypto';
import { registerVerified, type Tokens } from '../../helpers/accounts';
import { retryWhile } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { storeArea } from '../../helpers/orders';
import { cartApp, openStore, realOrders, send } from './doubles';

// POST /cart/reorder racing itself and the cart's edits (the store double, the real orders module): whichever commits
// first, the cart ends consistent: every line of the order once, a line both touched at the larger quantity, no line
// of a racing edit lost, and the cart the answers showed is the one stored (no stale cart written back).
beforeAll(requireEmulators);
jest.setTimeout(60_000);

let app: Awaited<ReturnType<typeof cartApp>>;
beforeAll(async () => {
  app = await cartApp({ ports: { orders: realOrders().port } });
});
afterAll(() => app.close());

type Line = { id: string; itemKey: string; quantity: number; options: Array<{ group: string; choices: string[] }>; note: string | null };
type Seller = { kind: string; id: string };

const add = (who: Tokens, body: Record<string, unknown>) => send(app.url, 'POST', '/cart/items', { token: who.accessToken, body });
const reorder = (who: Tokens, orderId: string) => send(app.url, 'POST', '/cart/reorder', { token: who.accessToken, body: { orderId } });
const cartAt = async (who: Tokens, seller: Seller) =>
  (await send(app.url, 'GET', `/cart?sellerKind=${seller.kind}&sellerId=${seller.id}`, { token: who.accessToken })).body.items[0] as {
    lines: Line[];
    revision: number;
  };
/** A cart's lines without their ids, in a stable order: what the consumer would buy. */
const contents = (lines: Line[]) =>
  lines.map((l) => `${l.itemKey}×${l.quantity}${l.options.map((o) => `/${o.group}:${o.choices.join('+')}`).join('')}${l.note ? ` (${l.note})` : ''}`).sort();

const size = { size: { name: 'Cỡ', min: 1, max: 1, choices: { vua: { name: 'Vừa', priceDeltaVnd: 0 }, lon: { name: 'Lớn', priceDeltaVnd: 10_000 } } } };
const menu = {
  pho: { name: 'Phở bò', priceVnd: 65_000, groups: size },
  tra: { name: 'Trà đá', priceVnd: 5_000 },
  com: { name: 'Cơm rang', priceVnd: 45_000 },
};
const PHO_LARGE = { itemKey: 'pho', options: [{ group: 'size', choices: ['lon'] }], note: 'không hành' };
/** What the past order holds: 2 large phở without onions, 3 iced teas. */
const ORDERED = ['pho×2/size:lon (không hành)', 'tra×3'];

// One store (far from other tests' couriers) for every case: each user has their own cart and order there.
let shop: Promise<{ here: ReturnType<typeof storeArea>; store: Awaited<ReturnType<typeof openStore>> }> | undefined;
const theStore = () =>
  (shop ??= (async () => {
    const here = storeArea();
    return { here, store: await openStore(here, menu) };
  })());

/** A new user's cash order at the store, placed through checkout: the cart is then empty. */
async function pastOrder() {
  const user = await registerVerified();
  const { here, store } = await theStore();
  expect((await add(user, { seller: store.ref, ...PHO_LARGE, quantity: 2 })).status).toBe(201);
  expect((await add(user, { seller: store.ref, itemKey: 'tra', quantity: 3 })).status).toBe(201);
  const checkout = { seller: store.ref, address: { location: here.near(900), address: '3 Lò Văn Giá, Sơn La' }, payment: { method: 'CASH' } };
  const key = randomUUID();
  // The store's queue is long on a loaded machine (several of these at once): retried with the key, as apps do.
  const placed = await retryWhile(
    () => send(app.url, 'POST', '/cart/checkout', { token: user.accessToken, key, body: checkout }),
    (res) => res.status === 409 && res.body.code === 'CART_CHECKOUT_BUSY',
    5,
  );
  expect([placed.status, placed.body.code]).toEqual([201, undefined]);
  expect((await cartAt(user, store.ref)).lines).toEqual([]);
  return { user, seller: store.ref as Seller, orderId: placed.body.order.id as string };
}

/** The stored cart is the one the last answer showed: the same lines (ids too) and revision, nothing older written back. */
async function expectStoredAsAnswered(user: Tokens, seller: Seller, answers: Array<{ lines: Line[]; revision: number }>) {
  const stored = await cartAt(user, seller);
  const last = answers.reduce((a, b) => (b.revision > a.revision ? b : a));
  expect({ lines: stored.lines, revision: stored.revision }).toEqual({ lines: last.lines, revision: last.revision });
  return stored;
}

describe('POST /cart/reorder in a race', () => {
  it('two reorders of one order at once (into an empty cart, several users together): the order’s lines once each', async () => {
    const cases = await Promise.all([0, 1, 2, 3].map(() => pastOrder()));
    const answers = await Promise.all(cases.map(({ user, orderId }) => Promise.all([reorder(user, orderId), reorder(user, orderId)])));
    for (const [i, { user, seller }] of cases.entries()) {
      expect(answers[i].map((r) => r.status)).toEqual([200, 200]);
      for (const r of answers[i]) expect(contents(r.body.lines)).toEqual(ORDERED);
      const stored = await expectStoredAsAnswered(
        user,
        seller,
        answers[i].map((r) => r.body),
      );
      expect(contents(stored.lines)).toEqual(ORDERED);
      // Written once: the second found the cart holding all of it (nothing to change).
      expect(stored.revision).toBe(1);
    }
  });

  it('racing an edit of a line the order holds too: the larger quantity stays, whichever commits first', async () => {
    const cases = await Promise.all([0, 1, 2].map(() => pastOrder()));
    const results = await Promise.all(
      cases.map(async ({ user, seller, orderId }) => {
        const line = (await add(user, { seller, ...PHO_LARGE, quantity: 1 })).body.lines[0] as Line;
        const edit = send(app.url, 'PATCH', `/cart/items/${line.id}`, { token: user.accessToken, body: { quantity: 5 } });
        return Promise.all([reorder(user, orderId), edit]);
      }),
    );
    for (const [i, { user, seller }] of cases.entries()) {
      expect(results[i].map((r) => r.status)).toEqual([200, 200]);
      const stored = await expectStoredAsAnswered(
        user,
        seller,
        results[i].map((r) => r.body),
      );
      expect(contents(stored.lines)).toEqual(['pho×5/size:lon (không hành)', 'tra×3']);
    }
  });

  it('racing the add of another item (the cart empty before): no line of either is lost', async () => {
    const cases = await Promise.all([0, 1, 2, 3].map(() => pastOrder()));
    const results = await Promise.all(
      cases.map(({ user, seller, orderId }) => Promise.all([reorder(user, orderId), add(user, { seller, itemKey: 'com', quantity: 1 })])),
    );
    for (const [i, { user, seller }] of cases.entries()) {
      expect(results[i].map((r) => r.status)).toEqual([200, 201]);
      const stored = await expectStoredAsAnswered(
        user,
        seller,
        results[i].map((r) => r.body),
      );
      expect(contents(stored.lines)).toEqual(['com×1', ...ORDERED].sort());
    }
  });
});
