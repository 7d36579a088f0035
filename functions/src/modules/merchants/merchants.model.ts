// Merchants: a partner's stores that take orders, and their menus. Pure rules and records (no Firestore here).

export const MERCHANT_CATEGORIES = ['FOOD', 'DRINKS', 'BAKERY', 'GROCERY', 'CONVENIENCE', 'FRUIT', 'FLOWERS', 'PHARMACY'] as const;
export type MerchantCategory = (typeof MERCHANT_CATEGORIES)[number];
export const MERCHANT_CATEGORY_LABELS: Record<MerchantCategory, { en: string; vi: string }> = {
  FOOD: { en: 'Food', vi: 'Đồ ăn' },
  DRINKS: { en: 'Drinks', vi: 'Đồ uống' },
  BAKERY: { en: 'Bakery', vi: 'Bánh ngọt' },
  GROCERY: { en: 'Groceries', vi: 'Đi chợ' },
  CONVENIENCE: { en: 'Convenience stores', vi: 'Cửa hàng tiện lợi' },
  FRUIT: { en: 'Fruit', vi: 'Trái cây' },
  FLOWERS: { en: 'Flowers', vi: 'Hoa' },
  PHARMACY: { en: 'Health and pharmacy', vi: 'Sức khỏe' },
};

export const MENU_LIMITS = {
  /** Items per merchant (the menu is read whole). */
  items: 500,
  sections: 50,
  optionGroups: 10,
  choices: 30,
  /** Item keys per bulk availability call. */
  availabilityBatch: 200,
  /** Lines a quote or an order prices at once. */
  lines: 50,
  quantity: 99,
  note: 200,
} as const;

export interface MenuSection {
  key: string;
  name: string;
}

export interface MenuOptionChoice {
  key: string;
  name: string;
  priceDeltaVnd: number;
}

/** A choice to make on an item (size, toppings, sugar level): between `min` and `max` of its choices. */
export interface MenuOptionGroup {
  key: string;
  name: string;
  /** At least one choice must be made (min ≥ 1). */
  required: boolean;
  min: number;
  max: number;
  choices: MenuOptionChoice[];
}

export interface MerchantDetails {
  category: MerchantCategory;
  tags?: string[];
  deliveryRadiusM: number;
  prepTimeMin: number;
  minOrderVnd: number;
  paused?: boolean;
  menuSections?: MenuSection[];
}

type Problem = { path: Array<string | number>; message: string };

/** The group as the menu keeps it: `min` given or implied by `required` (1), `required` implied by min ≥ 1. */
export function normalizeGroup<G extends { required?: boolean; min?: number }>(group: G): G & { required: boolean; min: number } {
  const min = group.min ?? (group.required ? 1 : 0);
  return { ...group, min, required: Boolean(group.required) || min >= 1 };
}

/**
 * What is wrong with an item's option groups (paths under `optionGroups`): unique group keys, unique choice keys in
 * a group, min ≤ max ≤ the number of choices, and a required group asking for at least one choice.
 */
export function optionGroupProblems(
  groups: ReadonlyArray<{ key: string; required: boolean; min: number; max: number; choices: ReadonlyArray<{ key: string }> }>,
): Problem[] {
  const problems: Problem[] = [];
  const seen = new Set<string>();
  groups.forEach((group, g) => {
    if (seen.has(group.key)) problems.push({ path: [g, 'key'], message: `another group has the key ${group.key}` });
    seen.add(group.key);
    const keys = new Set<string>();
    group.choices.forEach((choice, c) => {
      if (keys.has(choice.key)) problems.push({ path: [g, 'choices', c, 'key'], message: `another choice of this group has the key ${choice.key}` });
      keys.add(choice.key);
    });
    if (group.required && group.min < 1) problems.push({ path: [g, 'min'], message: 'a required group asks for at least 1 choice' });
    if (group.min > group.max) problems.push({ path: [g, 'min'], message: `must be at most max (${group.max})` });
    if (group.max > group.choices.length) problems.push({ path: [g, 'max'], message: `must be at most the number of choices (${group.choices.length})` });
  });
  return problems;
}

/** Duplicate keys of a list (sections, bulk changes), by index. */
export function duplicateKeys(keys: readonly string[]): number[] {
  return keys.flatMap((key, i) => (keys.indexOf(key) !== i ? [i] : []));
}
