import { randomUUID } from 'node:crypto';
import { sellers, type LineRequest, type SellerRef } from '../../../src/modules/merchants';
import { inTransaction } from '../../../src/platform/core/firebase/firebase';
import type { Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { area } from '../../helpers/geo';
import { openMerchant, putItem } from '../../helpers/merchants';
import { partnerCast, staffOf, type PartnerOwner } from '../../helpers/partners';

beforeAll(requireEmulators);

// The sellers face that checkout and orders call: the store as they see it, prices from the stored menu only,
// option checks with field paths, and counted stock taken in the caller's transaction (the last-unit race).

let admin: Tokens, owner: PartnerOwner, rival: PartnerOwner, user: Tokens, staff: Tokens;
let merchant: SellerRef;
beforeAll(async () => {
  ({ admin, owner, rival, user } = await partnerCast('Phở Thìn Lò Đúc', 'Phở Khác'));
  staff = await staffOf(owner);
  merchant = { kind: 'MERCHANT', id: (await openMerchant(owner, area())).id };
});

const problem = (err: unknown) => err as { statusCode: number; code: string; details: unknown };
async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (err) {
    return problem(err);
  }
  throw new Error('expected a refusal');
}
const fieldsOf = (e: { details: unknown }) => (e.details as Array<{ field: string }>).map((d) => d.field);
const stockOf = async (id: string, key: string) =>
  (await call('GET', `/merchants/${id}/items`, { token: owner.accessToken })).body.items.find((i: { itemKey: string }) => i.itemKey === key).stock;

describe('the store', () => {
  it('get: an active store with its terms; accepting only when active, not paused and open', async () => {
    const seller = await sellers.get(merchant);
    expect(seller).toEqual({
      ref: merchant,
      partnerId: owner.partnerId,
      name: 'Phở Thìn Bờ Hồ',
      category: 'FOOD',
      lat: expect.any(Number),
      lng: expect.any(Number),
      address: '13 Lò Đúc, Hai Bà Trưng, Hà Nội',
      deliveryRadiusM: 5_000,
      prepTimeMin: 15,
      minOrderVnd: 30_000,
      timeZone: 'Asia/Ho_Chi_Minh',
      openNow: true,
      paused: false,
      accepting: true,
    });
    const other = await openMerchant(owner, area(), {}, false);
    const ref: SellerRef = { kind: 'MERCHANT', id: other.id };
    await call('POST', `/merchants/${other.id}/pause`, { token: owner.accessToken });
    expect(await sellers.get(ref)).toMatchObject({ paused: true, openNow: true, accepting: false });
    await call('POST', `/merchants/${other.id}/resume`, { token: owner.accessToken });
    // Closed all week (no slots) and unknown hours: not open, not accepting.
    await call('PATCH', `/merchants/${other.id}`, {
      token: owner.accessToken,
      body: { openingHours: { weekly: [{ day: 'MON', open: '00:00', close: '00:01' }] } },
    });
    expect(await sellers.get(ref)).toMatchObject({ paused: false, openNow: false, accepting: false });
    await call('PATCH', `/merchants/${other.id}`, { token: owner.accessToken, body: { openingHours: null } });
    expect(await sellers.get(ref)).toMatchObject({ openNow: false, accepting: false });
    // Hidden or archived: no seller.
    await call('POST', `/merchants/admin/${other.id}/hide`, { token: admin.accessToken, body: { reason: 'Kiểm tra vệ sinh' } });
    expect(await sellers.get(ref)).toBeUndefined();
    for (const bad of [
      { kind: 'MERCHANT', id: 'no-such' },
      { kind: 'HOTEL', id: other.id },
      { kind: 'MERCHANT', id: 'a/b' },
    ])
      expect(await sellers.get(bad as SellerRef)).toBeUndefined();
  });

  it('staffRole: the owner and staff of the store’s partner, nobody else', async () => {
    expect(await sellers.staffRole(merchant, owner.user.id)).toBe('OWNER');
    expect(await sellers.staffRole(merchant, staff.user.id)).toBe('STAFF');
    expect(await sellers.staffRole(merchant, rival.user.id)).toBeUndefined();
    expect(await sellers.staffRole(merchant, user.user.id)).toBeUndefined();
    expect(await sellers.staffRole({ kind: 'MERCHANT', id: 'no-such' }, owner.user.id)).toBeUndefined();
  });
});

describe('quote', () => {
  it('prices from the stored menu: base price plus the deltas of the choices, canonical option order, notes kept', async () => {
    const lines: LineRequest[] = [
      {
        itemKey: 'pho-tai',
        quantity: 2,
        options: [
          { group: 'them', choices: ['trung', 'bo'] },
          { group: 'size', choices: ['lon'] },
        ],
        note: '  ít hành  ',
      },
      { itemKey: 'pho-dac-biet', quantity: 1 },
    ];
    // A client's price never enters: the line has no field for it, and one sent is ignored.
    const tampered = lines.map((l) => ({ ...l, unitPriceVnd: 1, priceVnd: 1 })) as LineRequest[];
    for (const asked of [lines, tampered]) {
      const priced = await sellers.quote(merchant, asked);
      expect(priced).toEqual([
        {
          itemKey: 'pho-tai',
          name: 'Phở bò tái',
          quantity: 2,
          unitPriceVnd: 55_000 + 10_000 + 15_000 + 5_000,
          lineTotalVnd: 170_000,
          options: [
            { group: 'size', groupName: 'Cỡ tô', choices: [{ key: 'lon', name: 'Tô lớn', priceDeltaVnd: 10_000 }] },
            {
              group: 'them',
              groupName: 'Thêm',
              choices: [
                { key: 'bo', name: 'Thêm bò', priceDeltaVnd: 15_000 },
                { key: 'trung', name: 'Trứng chần', priceDeltaVnd: 5_000 },
              ],
            },
          ],
          requiresPrescription: false,
          note: 'ít hành',
        },
        { itemKey: 'pho-dac-biet', name: 'Phở đặc biệt', quantity: 1, unitPriceVnd: 85_000, lineTotalVnd: 85_000, options: [], requiresPrescription: false },
      ]);
    }
    // A price change is the next quote's price.
    await putItem(owner, merchant.id, 'pho-dac-biet', { name: 'Phở đặc biệt', priceVnd: 90_000, categoryKey: 'pho', stock: 3 });
    expect((await sellers.quote(merchant, [{ itemKey: 'pho-dac-biet', quantity: 1 }]))[0].unitPriceVnd).toBe(90_000);
  });

  it('400 with the path of every bad line: unknown item, option outside its group, too few or many choices, a required group missing, quantity', async () => {
    const bad = await refusal(
      sellers.quote(merchant, [
        { itemKey: 'pho-tai', quantity: 1, options: [{ group: 'size', choices: ['khong-lo'] }] },
        { itemKey: 'pho-tai', quantity: 1, options: [{ group: 'them', choices: ['bo', 'trung', 'hanh'] }] },
        { itemKey: 'pho-tai', quantity: 1, options: [{ group: 'topping', choices: ['x'] }] },
        { itemKey: 'lau-thai', quantity: 1 },
        { itemKey: 'pho-dac-biet', quantity: 0 },
        { itemKey: 'pho-dac-biet', quantity: 100 },
        { itemKey: 'pho-dac-biet', quantity: 1.5 },
        { itemKey: 'pho-tai', quantity: 1, options: [{ group: 'size', choices: ['thuong', 'thuong'] }] },
        {
          itemKey: 'pho-tai',
          quantity: 1,
          options: [
            { group: 'size', choices: ['thuong'] },
            { group: 'size', choices: ['lon'] },
          ],
        },
        { itemKey: 'pho-dac-biet', quantity: 1, options: [{ group: 'size', choices: ['lon'] }] },
        { itemKey: '../x', quantity: 1 },
        { itemKey: 'pho-dac-biet', quantity: 1, note: 'x'.repeat(201) },
      ]),
    );
    expect(bad.statusCode).toBe(400);
    expect(fieldsOf(bad)).toEqual([
      'lines.0.options.0.choices.0',
      'lines.1.options.0.choices',
      'lines.1.options',
      'lines.2.options.0.group',
      'lines.2.options',
      'lines.3.itemKey',
      'lines.4.quantity',
      'lines.5.quantity',
      'lines.6.quantity',
      'lines.7.options.0.choices.1',
      'lines.7.options.0.choices',
      'lines.8.options.1.group',
      'lines.9.options.0.group',
      'lines.10.itemKey',
      'lines.11.note',
    ]);
    expect(fieldsOf(await refusal(sellers.quote(merchant, [])))).toEqual(['lines']);
    expect(
      fieldsOf(
        await refusal(
          sellers.quote(
            merchant,
            Array.from({ length: 51 }, () => ({ itemKey: 'pho-dac-biet', quantity: 1 })),
          ),
        ),
      ),
    ).toEqual(['lines']);
    expect((await refusal(sellers.quote({ kind: 'PARCEL' as never, id: merchant.id }, [{ itemKey: 'pho-tai', quantity: 1 }]))).statusCode).toBe(404);
  });

  it('409 ITEM_UNAVAILABLE for an item turned off, 409 OUT_OF_STOCK with what is left (lines of one item summed)', async () => {
    expect(await refusal(sellers.quote(merchant, [{ itemKey: 'tra-da', quantity: 1 }]))).toMatchObject({
      statusCode: 409,
      code: 'ITEM_UNAVAILABLE',
      details: { itemKey: 'tra-da' },
    });
    expect(await refusal(sellers.quote(merchant, [{ itemKey: 'nuoc-sam', quantity: 1 }]))).toMatchObject({
      code: 'OUT_OF_STOCK',
      details: { itemKey: 'nuoc-sam', available: 0 },
    });
    const own = { kind: 'MERCHANT' as const, id: (await openMerchant(owner, area())).id };
    expect(await sellers.quote(own, [{ itemKey: 'pho-dac-biet', quantity: 3 }])).toHaveLength(1);
    expect(
      await refusal(
        sellers.quote(own, [
          { itemKey: 'pho-dac-biet', quantity: 2 },
          { itemKey: 'pho-dac-biet', quantity: 2, note: 'không hành' },
        ]),
      ),
    ).toMatchObject({ code: 'OUT_OF_STOCK', details: { itemKey: 'pho-dac-biet', available: 3 } });
    // Bad lines are reported before availability.
    expect(
      (
        await refusal(
          sellers.quote(own, [
            { itemKey: 'tra-da', quantity: 1 },
            { itemKey: 'nope', quantity: 1 },
          ]),
        )
      ).statusCode,
    ).toBe(400);
  });
});

describe('stock in the caller’s transaction', () => {
  const take = (ref: SellerRef, lines: LineRequest[]) =>
    inTransaction(async (tx) => {
      const taken = await sellers.txTake(tx, ref, lines);
      taken.take();
      return taken.lines;
    });

  it('takes counted stock, leaves uncounted items alone, and gives it back', async () => {
    const ref: SellerRef = { kind: 'MERCHANT', id: (await openMerchant(owner, area())).id };
    const lines = await take(ref, [
      { itemKey: 'pho-dac-biet', quantity: 2 },
      { itemKey: 'pho-tai', quantity: 5, options: [{ group: 'size', choices: ['thuong'] }] },
    ]);
    expect(lines.map((l) => l.lineTotalVnd)).toEqual([170_000, 275_000]);
    expect(await stockOf(ref.id, 'pho-dac-biet')).toBe(1);
    expect(await stockOf(ref.id, 'pho-tai')).toBeNull();
    await inTransaction(async (tx) =>
      (
        await sellers.txGiveBack(tx, ref, [
          { itemKey: 'pho-dac-biet', quantity: 2 },
          { itemKey: 'pho-tai', quantity: 5 },
        ])
      )(),
    );
    expect(await stockOf(ref.id, 'pho-dac-biet')).toBe(3);
    expect(await stockOf(ref.id, 'pho-tai')).toBeNull();
    await expect(inTransaction(async (tx) => sellers.txGiveBack(tx, ref, [{ itemKey: 'pho-dac-biet', quantity: 0 }]))).rejects.toMatchObject({
      statusCode: 400,
    });
  });

  it('the last unit: two transactions take it at once, exactly one succeeds, the other gets 409 OUT_OF_STOCK; give-back restores it', async () => {
    const ref: SellerRef = { kind: 'MERCHANT', id: (await openMerchant(owner, area())).id };
    await putItem(owner, ref.id, 'pho-dac-biet', { name: 'Phở đặc biệt', priceVnd: 85_000, categoryKey: 'pho', stock: 1 });
    const results = await Promise.allSettled([1, 2].map(() => take(ref, [{ itemKey: 'pho-dac-biet', quantity: 1 }])));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lost = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')!;
    expect(problem(lost.reason)).toMatchObject({ statusCode: 409, code: 'OUT_OF_STOCK', details: { itemKey: 'pho-dac-biet', available: 0 } });
    expect(await stockOf(ref.id, 'pho-dac-biet')).toBe(0);
    const menu = await call('GET', `/merchants/${ref.id}/menu`, { token: user.accessToken });
    expect(menu.body.sections[0].items.find((i: { itemKey: string }) => i.itemKey === 'pho-dac-biet').soldOut).toBe(true);

    await inTransaction(async (tx) => (await sellers.txGiveBack(tx, ref, [{ itemKey: 'pho-dac-biet', quantity: 1 }]))());
    expect(await stockOf(ref.id, 'pho-dac-biet')).toBe(1);
    expect(await take(ref, [{ itemKey: 'pho-dac-biet', quantity: 1 }])).toHaveLength(1);
  });
});

describe('pharmacy stores as sellers', () => {
  it('the map tab’s stores and products: sku as itemKey, no options, counted stock, prescription flag', async () => {
    const made = await call('POST', '/pharmacy/stores', {
      token: owner.accessToken,
      body: { partnerId: owner.partnerId, name: 'Nhà thuốc Long Châu 99', location: area(), openingHours: { open24h: true } },
      headers: { 'idempotency-key': randomUUID() },
    });
    const ref: SellerRef = { kind: 'PHARMACY', id: made.body.id };
    const product = (sku: string, body: Record<string, unknown>) =>
      call('PUT', `/pharmacy/stores/${ref.id}/products/${sku}`, { token: owner.accessToken, body });
    await product('PANADOL', { name: 'Panadol Extra', priceVnd: 185_000, stock: 2 });
    await product('AMOX', { name: 'Amoxicillin 500mg', priceVnd: 60_000, stock: 5, requiresPrescription: true });
    expect(await sellers.get(ref)).toMatchObject({ category: 'PHARMACY', partnerId: owner.partnerId, deliveryRadiusM: 5_000, paused: false, accepting: true });
    expect(await sellers.staffRole(ref, staff.user.id)).toBe('STAFF');
    expect(await sellers.quote(ref, [{ itemKey: 'AMOX', quantity: 2 }])).toEqual([
      { itemKey: 'AMOX', name: 'Amoxicillin 500mg', quantity: 2, unitPriceVnd: 60_000, lineTotalVnd: 120_000, options: [], requiresPrescription: true },
    ]);
    expect(fieldsOf(await refusal(sellers.quote(ref, [{ itemKey: 'AMOX', quantity: 1, options: [{ group: 'size', choices: ['l'] }] }])))).toEqual([
      'lines.0.options.0.group',
    ]);
    await inTransaction(async (tx) => (await sellers.txTake(tx, ref, [{ itemKey: 'PANADOL', quantity: 2 }])).take());
    expect(await refusal(sellers.quote(ref, [{ itemKey: 'PANADOL', quantity: 1 }]))).toMatchObject({
      code: 'OUT_OF_STOCK',
      details: { itemKey: 'PANADOL', available: 0 },
    });
    const listed = await call('GET', `/pharmacy/stores/${ref.id}/products?inStock=true`, { token: user.accessToken });
    expect(listed.body.items.map((p: { sku: string }) => p.sku)).toEqual(['AMOX']);
    await inTransaction(async (tx) => (await sellers.txGiveBack(tx, ref, [{ itemKey: 'PANADOL', quantity: 1 }]))());
    expect(await sellers.quote(ref, [{ itemKey: 'PANADOL', quantity: 1 }])).toHaveLength(1);
  });
});
