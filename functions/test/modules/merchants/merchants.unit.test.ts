import { menuOf, type MenuItemRecord } from '../../../src/modules/merchants/merchants.menu';
import { priceLines, type PricingItem } from '../../../src/modules/merchants/merchants.pricing';
import { MerchantItemBodySchema } from '../../../src/modules/merchants/merchants.schemas';
import { DEMO_MENUS, DEMO_MERCHANTS } from '../../../src/modules/merchants/merchants.seed-data';
import { merchantsCatalog } from '../../../src/modules/merchants/merchants.catalog';
import { catalogSchemas } from '../../../src/platform/kits/catalog/catalog.routes';
import { inStockOf } from '../../../src/platform/kits/catalog/catalog.items';
import { distanceMeters } from '../../../src/platform/kits/geo/geo';
import { vnd } from '../../../src/platform/kits/money/money';
import { foldText } from '../../../src/platform/kits/text/text';

// Pure rules of the merchants module: option groups, pricing, the menu's grouping, the kit's inStock, the seed data.

const size = {
  key: 'size',
  name: 'Size',
  required: true,
  min: 1,
  max: 1,
  choices: [
    { key: 'm', name: 'M', priceDeltaVnd: 0 },
    { key: 'l', name: 'L', priceDeltaVnd: 8_000 },
  ],
};
const toppings = {
  key: 'topping',
  name: 'Topping',
  required: false,
  min: 0,
  max: 2,
  choices: [
    { key: 'tc', name: 'Trân châu', priceDeltaVnd: 5_000 },
    { key: 'pudding', name: 'Pudding', priceDeltaVnd: 8_000 },
    { key: 'thach', name: 'Thạch', priceDeltaVnd: 5_000 },
  ],
};
const MENU: Record<string, PricingItem> = {
  'tra-sua': { name: 'Trà sữa', priceVnd: 35_000, optionGroups: [size, toppings], available: true, requiresPrescription: false },
  'tra-dao': { name: 'Trà đào', priceVnd: 40_000, optionGroups: [], available: false, requiresPrescription: false },
};
const itemOf = (key: string) => MENU[key];
const fieldsOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return ((err as { details: Array<{ field: string }> }).details ?? []).map((d) => d.field);
  }
  throw new Error('expected a refusal');
};

describe('option groups of an item', () => {
  const body = (groups: unknown[]) => MerchantItemBodySchema.safeParse({ name: 'Trà sữa', priceVnd: 35_000, categoryKey: 'tra', optionGroups: groups });
  const paths = (groups: unknown[]) => (body(groups).error?.issues ?? []).map((i) => i.path.join('.'));

  it('min follows required and required follows min', () => {
    const parsed = body([
      { key: 'a', name: 'A', required: true, max: 1, choices: [{ key: 'x', name: 'X' }] },
      { key: 'b', name: 'B', min: 1, max: 1, choices: [{ key: 'x', name: 'X' }] },
      { key: 'c', name: 'C', max: 1, choices: [{ key: 'x', name: 'X' }] },
    ]);
    expect(parsed.data?.optionGroups.map((g) => [g.key, g.required, g.min])).toEqual([
      ['a', true, 1],
      ['b', true, 1],
      ['c', false, 0],
    ]);
    expect(parsed.data?.optionGroups[0].choices[0].priceDeltaVnd).toBe(0);
  });

  it('refuses min > max, max > choices, a required group asking for none, and keys given twice', () => {
    const one = [{ key: 'x', name: 'X' }];
    expect(paths([{ key: 'a', name: 'A', min: 2, max: 1, choices: [...one, { key: 'y', name: 'Y' }] }])).toEqual(['optionGroups.0.min']);
    expect(paths([{ key: 'a', name: 'A', max: 2, choices: one }])).toEqual(['optionGroups.0.max']);
    expect(paths([{ key: 'a', name: 'A', required: true, min: 0, max: 1, choices: one }])).toEqual(['optionGroups.0.min']);
    expect(
      paths([
        { key: 'a', name: 'A', max: 1, choices: one },
        { key: 'a', name: 'B', max: 1, choices: [one[0], one[0]] },
      ]),
    ).toEqual(['optionGroups.1.key', 'optionGroups.1.choices.1.key']);
    expect(paths([{ key: 'a', name: 'A', max: 1, choices: [] }])).toEqual(['optionGroups.0.choices', 'optionGroups.0.max']);
    expect(paths(Array.from({ length: 11 }, (_, i) => ({ key: `g${i}`, name: 'G', max: 1, choices: one })))).toEqual(['optionGroups']);
  });
});

describe('pricing lines', () => {
  it('adds the choices’ deltas to the stored price, in the item’s order of groups and choices', () => {
    const [line] = priceLines(
      [
        {
          itemKey: 'tra-sua',
          quantity: 3,
          options: [
            { group: 'topping', choices: ['thach', 'tc'] },
            { group: 'size', choices: ['l'] },
          ],
        },
      ],
      itemOf,
    );
    expect(line).toMatchObject({ unitPriceVnd: 35_000 + 8_000 + 5_000 + 5_000, lineTotalVnd: 159_000 });
    expect(line.options.map((g) => [g.group, g.choices.map((c) => c.key)])).toEqual([
      ['size', ['l']],
      ['topping', ['tc', 'thach']],
    ]);
    expect(line).not.toHaveProperty('note');
  });

  it('names each bad field; a turned-off item is 409 only once every line is well formed', () => {
    expect(fieldsOf(() => priceLines([{ itemKey: 'tra-sua', quantity: 1 }], itemOf))).toEqual(['lines.0.options']);
    expect(fieldsOf(() => priceLines([{ itemKey: 'tra-sua', quantity: 1, options: [{ group: 'size', choices: 'l' as never }] }], itemOf))).toEqual([
      'lines.0.options.0.choices',
    ]);
    expect(fieldsOf(() => priceLines([{ itemKey: 'tra-sua', quantity: 1, options: 'size' as never }], itemOf))).toEqual(['lines.0.options']);
    expect(
      fieldsOf(() =>
        priceLines(
          [
            { itemKey: 'tra-dao', quantity: 1 },
            { itemKey: 'tra-sua', quantity: -1, options: [{ group: 'size', choices: ['m'] }] },
          ],
          itemOf,
        ),
      ),
    ).toEqual(['lines.1.quantity']);
    expect(() => priceLines([{ itemKey: 'tra-dao', quantity: 1 }], itemOf)).toThrow(
      expect.objectContaining({ code: 'ITEM_UNAVAILABLE', details: { itemKey: 'tra-dao' } }),
    );
    expect(fieldsOf(() => priceLines(null as never, itemOf))).toEqual(['lines']);
  });
});

describe('the menu screen', () => {
  const stored = (itemKey: string, name: string, categoryKey: string, extra: Partial<MenuItemRecord> = {}) =>
    ({
      merchantId: 'm1',
      itemKey,
      name,
      nameFolded: foldText(name),
      terms: [],
      priceVnd: vnd(10_000),
      categoryKey,
      optionGroups: [],
      available: true,
      stock: null,
      inStock: true,
      requiresPrescription: false,
      photos: [],
      updatedBy: 'u',
      updatedAt: 0,
      ...extra,
    }) as MenuItemRecord;

  it('groups by the sections’ order, sorts by position then name, and puts orphans last', () => {
    const menu = menuOf(
      {
        id: 'm1',
        status: 'ACTIVE',
        openNow: true,
        paused: false,
        menuSections: [
          { key: 'nuoc', name: 'Nước' },
          { key: 'com', name: 'Cơm' },
          { key: 'trong', name: 'Trống' },
        ],
      },
      [
        stored('com-ga', 'Cơm gà', 'com'),
        stored('com-suon', 'Cơm sườn', 'com', { position: 0 }),
        stored('tra', 'Trà đá', 'nuoc', { stock: 0, inStock: false }),
        stored('cu', 'Món cũ', 'da-xoa'),
      ],
    );
    expect(menu.sections.map((s) => [s.key, s.items.map((i) => i.itemKey)])).toEqual([
      ['nuoc', ['tra']],
      ['com', ['com-suon', 'com-ga']],
      ['', ['cu']],
    ]);
    expect(menu.sections[0].items[0]).toMatchObject({ available: true, soldOut: true });
    expect(menu.acceptingOrders).toBe(true);
    expect(menuOf({ id: 'm1', status: 'ACTIVE', openNow: null, paused: false }, []).acceptingOrders).toBe(false);
    expect(menuOf({ id: 'm1', status: 'HIDDEN', openNow: true }, []).acceptingOrders).toBe(false);
    expect(menuOf({ id: 'm1', status: 'ACTIVE', openNow: true, paused: true }, []).acceptingOrders).toBe(false);
  });
});

describe('the catalog kit’s inStock', () => {
  it('optional stock and availability: uncounted or above 0, and available', () => {
    const menu = { stock: 'optional' as const, availability: true };
    expect([
      inStockOf(menu, { stock: null, available: true }),
      inStockOf(menu, { stock: 0, available: true }),
      inStockOf(menu, { stock: 2, available: false }),
    ]).toEqual([true, false, false]);
    expect([inStockOf({ stock: true }, { stock: 0 }), inStockOf({ stock: true }, { stock: 1 }), inStockOf({}, {})]).toEqual([false, true, undefined]);
  });
});

describe('demo data', () => {
  const HCMC = { lat: 10.7769, lng: 106.7009 };
  const HANOI = { lat: 21.0285, lng: 105.8542 };

  it('20 merchants near the seeded cities, each body and menu item valid for the API', () => {
    expect(DEMO_MERCHANTS).toHaveLength(20);
    expect(new Set(DEMO_MERCHANTS.map((m) => m.id)).size).toBe(20);
    const near = (c: { lat: number; lng: number }) => DEMO_MERCHANTS.filter((m) => distanceMeters(c, m.fields.location) < 10_000).length;
    expect([near(HCMC), near(HANOI)]).toEqual([12, 8]);
    const { body } = catalogSchemas(merchantsCatalog);
    for (const merchant of DEMO_MERCHANTS) {
      expect(body.safeParse({ ...merchant.fields, partnerId: 'seed-partner' }).error).toBeUndefined();
      const sections = new Set(merchant.fields.menuSections.map((s) => s.key));
      for (const { key, ...item } of DEMO_MENUS[merchant.menu].items) {
        expect([key, MerchantItemBodySchema.safeParse(item).error]).toEqual([key, undefined]);
        expect([key, sections.has(item.categoryKey)]).toEqual([key, true]);
      }
    }
    const items = Object.values(DEMO_MENUS).flatMap((m) => m.items);
    expect(items.filter((i) => i.stock === 0).length).toBeGreaterThanOrEqual(3);
    expect(items.filter((i) => i.available === false).length).toBeGreaterThanOrEqual(2);
    expect(items.filter((i) => (i.optionGroups ?? []).length > 0).length).toBeGreaterThanOrEqual(10);
  });
});
