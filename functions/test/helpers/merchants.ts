import { randomUUID } from 'node:crypto';
import type { Tokens } from './accounts';
import { call, type ApiResponse } from './api';

// The merchants module's driver: a store of a partner, open around the clock, with a small Vietnamese menu, taken
// through the real API (the merchants tests and those of cart, checkout and orders).

export const MENU_SECTIONS = [
  { key: 'pho', name: 'Phở' },
  { key: 'do-uong', name: 'Đồ uống' },
];

/** Size (pick exactly one) and extras (up to 2): the option groups of a bowl of phở. */
export const BOWL_OPTIONS = [
  {
    key: 'size',
    name: 'Cỡ tô',
    required: true,
    max: 1,
    choices: [
      { key: 'thuong', name: 'Tô thường' },
      { key: 'lon', name: 'Tô lớn', priceDeltaVnd: 10_000 },
    ],
  },
  {
    key: 'them',
    name: 'Thêm',
    max: 2,
    choices: [
      { key: 'bo', name: 'Thêm bò', priceDeltaVnd: 15_000 },
      { key: 'trung', name: 'Trứng chần', priceDeltaVnd: 5_000 },
      { key: 'hanh', name: 'Hành trần' },
    ],
  },
];

/** The menu `openMerchant` puts: a phở with options, a dish of 3 counted portions, a drink turned off, a sold-out one. */
export const DEMO_ITEMS: Record<string, Record<string, unknown>> = {
  'pho-tai': { name: 'Phở bò tái', priceVnd: 55_000, categoryKey: 'pho', optionGroups: BOWL_OPTIONS },
  'pho-dac-biet': { name: 'Phở đặc biệt', priceVnd: 85_000, categoryKey: 'pho', stock: 3 },
  'tra-da': { name: 'Trà đá', priceVnd: 3_000, categoryKey: 'do-uong', available: false },
  'nuoc-sam': { name: 'Nước sâm', priceVnd: 15_000, categoryKey: 'do-uong', stock: 0 },
};

export const postMerchant = (who: Tokens, body: Record<string, unknown>): Promise<ApiResponse> =>
  call('POST', '/merchants', { token: who.accessToken, body, headers: { 'idempotency-key': randomUUID() } });

export const putItem = (who: Tokens, merchantId: string, itemKey: string, body: Record<string, unknown>): Promise<ApiResponse> =>
  call('PUT', `/merchants/${merchantId}/items/${itemKey}`, { token: who.accessToken, body });

/** A merchant of the owner's partner at `at`, open around the clock, with MENU_SECTIONS (`withMenu`: and DEMO_ITEMS). */
export async function openMerchant(
  owner: Tokens & { partnerId: string },
  at: { lat: number; lng: number },
  extra: Record<string, unknown> = {},
  withMenu = true,
): Promise<{ id: string } & Record<string, unknown>> {
  const made = await postMerchant(owner, {
    partnerId: owner.partnerId,
    name: 'Phở Thìn Bờ Hồ',
    category: 'FOOD',
    location: at,
    address: '13 Lò Đúc, Hai Bà Trưng, Hà Nội',
    openingHours: { open24h: true },
    deliveryRadiusM: 5_000,
    prepTimeMin: 15,
    minOrderVnd: 30_000,
    menuSections: MENU_SECTIONS,
    ...extra,
  });
  if (made.status !== 201) throw new Error(`create merchant ${made.status}: ${JSON.stringify(made.body)}`);
  if (withMenu)
    for (const [key, body] of Object.entries(DEMO_ITEMS)) {
      const put = await putItem(owner, made.body.id, key, body);
      if (put.status !== 200) throw new Error(`put ${key} ${put.status}: ${JSON.stringify(put.body)}`);
    }
  return made.body;
}
