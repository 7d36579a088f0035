import { randomUUID } from 'node:crypto';
import { Timestamp } from 'firebase-admin/firestore';
import { DRIVER_LOCATIONS } from '../../../src/modules/driver/driver.collections';
import { ORDERS } from '../../../src/modules/orders/orders.collections';
import { onConfirmTimeout } from '../../../src/modules/orders/orders.tasks';
import { ordersServiceFor } from '../../../src/modules/orders/orders.wiring';
import { LEDGER_TRANSFERS } from '../../../src/modules/wallet/ledger.model';
import { db } from '../../../src/platform/core/firebase/firebase';
import { adminTokens, type Tokens } from '../../helpers/accounts';
import { call, type ApiResponse } from '../../helpers/api';
import { testConfig } from '../../helpers/config';
import type { Driver } from '../../helpers/drivers';
import { png } from '../../helpers/images';
import { openMerchant } from '../../helpers/merchants';
import { activePartner, type PartnerOwner } from '../../helpers/partners';
import { waitFor } from '../../helpers/wait';

// The commerce flows through the real modules (merchants, cart, orders, promotions, payments, wallet, driver): the
// steps the end-to-end files share. Every order here goes through the API as the three apps send it; only the
// courier search's task body is run directly (`searchCourier`), rather than waiting for the queue.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are whatever the API sends; tests narrow them
export type Json = Record<string, any>;
export type Here = { near: (dNorthM: number, dEastM?: number) => { lat: number; lng: number } };
export type SellerRef = { kind: 'MERCHANT' | 'PHARMACY'; id: string };
type Payment = { method: 'CASH' } | { method: 'WALLET' } | { method: 'GATEWAY'; provider: 'VNPAY' | 'MOMO' | 'MOCK' };

/** The service the orders module's tasks run (its real ports). */
export const orders = () => ordersServiceFor(testConfig());

/** An approved partner with a store open around the clock at `here`, with the demo menu (merchants helper). */
export async function storeAt(here: Here, name = 'Phở Thìn'): Promise<{ owner: PartnerOwner; seller: SellerRef }> {
  const owner = await activePartner(name);
  const store = await openMerchant(owner, here.near(0));
  return { owner, seller: { kind: 'MERCHANT', id: store.id } };
}

export const addressNear = (here: Here, northM = 1_500) => ({
  location: here.near(northM),
  address: '45 Lê Văn Sỹ, Quận 3',
  recipientName: 'Lan',
  phone: '0912 345 678',
});

export async function addLine(who: Tokens, seller: SellerRef, itemKey: string, quantity: number, extra: Record<string, unknown> = {}): Promise<void> {
  const added = await call('POST', '/cart/items', { token: who.accessToken, body: { seller, itemKey, quantity, ...extra } });
  if (added.status !== 201) throw new Error(`add ${itemKey} ${added.status}: ${JSON.stringify(added.body)}`);
}

/** POST /cart/checkout with a fresh Idempotency-Key (or the one given): the answer as it comes. */
export const checkout = (
  who: Tokens,
  seller: SellerRef,
  here: Here,
  payment: Payment,
  extra: Record<string, unknown> = {},
  key: string = randomUUID(),
): Promise<ApiResponse> =>
  call('POST', '/cart/checkout', {
    token: who.accessToken,
    headers: { 'idempotency-key': key },
    body: { seller, address: addressNear(here), payment, ...extra },
  });

/** A cart of `lines` (item key → quantity; a phở takes the normal size) checked out: the order as placed. */
export async function placeOrder(
  who: Tokens,
  seller: SellerRef,
  here: Here,
  payment: Payment,
  lines: Record<string, number> = { 'pho-tai': 1 },
  extra: Record<string, unknown> = {},
): Promise<{ order: Json; payment: Json | null }> {
  for (const [itemKey, quantity] of Object.entries(lines))
    await addLine(who, seller, itemKey, quantity, itemKey === 'pho-tai' ? { options: [{ group: 'size', choices: ['thuong'] }] } : {});
  const placed = await checkout(who, seller, here, payment, extra);
  if (placed.status !== 201) throw new Error(`checkout ${placed.status}: ${JSON.stringify(placed.body)}`);
  return placed.body;
}

export const getOrder = (who: Tokens, id: string) => call('GET', `/orders/${id}`, { token: who.accessToken });

/** A store move (confirm, reject, preparing, ready, cancel) by its staff: must succeed. */
export async function storeMove(staff: Tokens, id: string, step: string, body: Record<string, unknown> = {}): Promise<Json> {
  const moved = await call('POST', `/orders/${id}/${step}`, { token: staff.accessToken, body });
  if (moved.status !== 200) throw new Error(`${step} ${moved.status}: ${JSON.stringify(moved.body)}`);
  return moved.body;
}

/** From PLACED to delivered by `courier` with the code the consumer sees: the DELIVERED order (as the courier sees it). */
export async function deliverThrough(consumer: Tokens, staff: Tokens, courier: Driver, id: string): Promise<Json> {
  for (const step of ['confirm', 'preparing', 'ready']) await storeMove(staff, id, step);
  // The search task's work; the deployed task may have assigned the courier first ('settled').
  await orders().searchCourier(id);
  const seen = (await getOrder(consumer, id)).body;
  if (seen.status !== 'COURIER_ASSIGNED' || seen.driverId !== courier.user.id) throw new Error(`not assigned to the courier: ${JSON.stringify(seen)}`);
  const picked = await call('POST', `/orders/${id}/pickup`, { token: courier.accessToken, body: {} });
  if (picked.status !== 200) throw new Error(`pickup ${picked.status}: ${JSON.stringify(picked.body)}`);
  const delivered = await call('POST', `/orders/${id}/deliver`, { token: courier.accessToken, body: { code: seen.handoverCode } });
  if (delivered.status !== 200) throw new Error(`deliver ${delivered.status}: ${JSON.stringify(delivered.body)}`);
  return delivered.body;
}

/** Reads the order (as `who`) until `done` holds for it: the payment's trigger or the lazy read moves it. */
export const orderUntil = (who: Tokens, id: string, done: (order: Json) => boolean, what = 'the order') =>
  waitFor(
    async () => {
      const seen = await getOrder(who, id);
      return seen.status === 200 && done(seen.body) ? (seen.body as Json) : undefined;
    },
    { what },
  );

/** Units left of a store's counted item (merchant item or pharmacy product), as its managers read its list. */
export async function stockOf(owner: Tokens, seller: SellerRef, itemKey: string): Promise<number | null> {
  const path = seller.kind === 'MERCHANT' ? `/merchants/${seller.id}/items` : `/pharmacy/stores/${seller.id}/products`;
  const read = await call('GET', `${path}?limit=100`, { token: owner.accessToken });
  if (read.status !== 200) throw new Error(`stock ${read.status}: ${JSON.stringify(read.body)}`);
  const item = (read.body.items as Json[]).find((i) => (i.itemKey ?? i.sku) === itemKey);
  if (!item) throw new Error(`no item ${itemKey} in ${JSON.stringify(read.body.items)}`);
  return item.stock ?? null;
}

export const location = async (driverId: string) => (await db().collection(DRIVER_LOCATIONS).doc(driverId).get()).data()!;

/** The ledger legs of an order's payout (debit, credit, amount), in posting order. */
export async function payoutOf(orderId: string): Promise<Array<{ debit: string; credit: string; amount: number; memo: string | null }>> {
  const snap = await db().collection(LEDGER_TRANSFERS).where('operationId', '==', `order-${orderId}-payout`).get();
  return snap.docs
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((d) => ({ debit: d.get('debit'), credit: d.get('credit'), amount: d.get('amount'), memo: d.get('memo') }));
}

/** An image the user uploaded (POST /upload/image): its media id. */
export async function uploadImage(who: Tokens, name = 'don-thuoc.png'): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([png()], { type: 'image/png' }), name);
  const res = await call('POST', '/upload/image', { token: who.accessToken, form });
  if (res.status !== 201) throw new Error(`upload ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

const DAY = 86_400_000;
/** A platform voucher for orders, made by the administrator through the promotions API (10%, 1 use per user). */
export async function orderVoucher(extra: Record<string, unknown> = {}): Promise<{ id: string; code: string }> {
  const admin = await adminTokens();
  const body = {
    code: `E${randomUUID().replace(/-/g, '').slice(0, 10)}`.toUpperCase(),
    title: 'Giảm 10% đơn đồ ăn',
    kind: 'PERCENT',
    value: 10,
    maxDiscount: 20_000,
    minSpend: 0,
    startsAt: new Date(Date.now() - DAY).toISOString(),
    endsAt: new Date(Date.now() + DAY).toISOString(),
    perUserLimit: 1,
    verticals: ['ORDER'],
    ...extra,
  };
  const made = await call('POST', '/promotions/manage', { token: admin.accessToken, body });
  if (made.status !== 201) throw new Error(`voucher ${made.status}: ${JSON.stringify(made.body)}`);
  return made.body;
}

/** The voucher's uses as the administrator reads them. */
export async function redeemedOf(voucher: { id: string }): Promise<number> {
  const read = await call('GET', `/promotions/manage/${voucher.id}`, { token: (await adminTokens()).accessToken });
  return read.body.stats.redeemed as number;
}

/** Dates the order's confirmation time a minute back (as if 11 minutes had passed), then runs the timer's task. */
export async function confirmTimerFires(orderId: string): Promise<void> {
  await db()
    .collection(ORDERS)
    .doc(orderId)
    .update({ confirmBy: Timestamp.fromMillis(Date.now() - 60_000) });
  await onConfirmTimeout({ orderId }, testConfig());
}
