import { z } from 'zod';
import { DocumentIdSchema } from '../../platform/core/http/ids';
import { BooleanQuerySchema } from '../../platform/core/http/query';
import { ItemKeySchema } from '../../platform/kits/catalog/catalog.items.routes';
import { vnd } from '../../platform/kits/money/money';
import { priceRange } from '../../platform/kits/money/money.schemas';
import { duplicateKeys, MENU_LIMITS, MERCHANT_CATEGORIES, normalizeGroup, optionGroupProblems } from './merchants.model';

// The merchants' shapes: the store's own fields (the catalog's details), menu items, the menu, and the bodies of
// the module's own operations. Each validates, shapes answers and documents (OpenAPI) at once.

const text = (max: number) => z.string().trim().min(1).max(max);

/** A list keyed by `key` (sections, bulk changes): 400 on the second of two equal keys. */
function uniqueKeys<T extends z.ZodType<Array<{ [k: string]: unknown }>>>(list: T, field: string, noun: string): T {
  return list.superRefine((entries, ctx) => {
    for (const i of duplicateKeys(entries.map((e) => String(e[field]))))
      ctx.addIssue({ code: 'custom', path: [i, field], message: `another ${noun} has this ${field}` });
  });
}

export const MenuSectionSchema = z
  .object({ key: ItemKeySchema, name: text(60).describe('As the menu shows it: "Phở bò", "Đồ uống"') })
  .meta({ id: 'MenuSection' });
const SectionListSchema = uniqueKeys(z.array(MenuSectionSchema).max(MENU_LIMITS.sections), 'key', 'section');

export const MerchantDetailsSchema = z.object({
  category: z.enum(MERCHANT_CATEGORIES),
  tags: z.array(text(30)).max(10).optional().describe('Free labels: "phở", "chay", "ăn vặt"…'),
  deliveryRadiusM: z.number().int().min(500).max(20_000).describe('How far it delivers, in metres from the store'),
  prepTimeMin: z.number().int().min(0).max(240).describe('Usual minutes from confirming an order to having it ready'),
  minOrderVnd: priceRange(0, 5_000_000).describe('Smallest order subtotal, VND (0: none)'),
  paused: z.boolean().optional().describe('Busy, not taking orders (POST …/pause and …/resume; not in PATCH). false for a new store unless sent'),
  menuSections: SectionListSchema.optional().describe('Menu sections in display order (PUT …/menu/sections; not in PATCH)'),
});

export const MerchantFiltersSchema = z.object({
  category: z.enum(MERCHANT_CATEGORIES).optional(),
  minRating: z.coerce.number().min(0).max(5).optional().describe('Only merchants rated at least this (an unrated one counts as 0)'),
  deliversHere: BooleanQuerySchema.optional().describe('true: only merchants whose delivery radius reaches lat/lng'),
});

const OptionChoiceBodySchema = z.object({
  key: ItemKeySchema,
  name: text(60).describe('"Lớn", "Trân châu đen", "50% đường"'),
  priceDeltaVnd: priceRange(0, 5_000_000).default(vnd(0)).describe('Added to the item’s price, VND'),
});

const OptionGroupBodySchema = z
  .object({
    key: ItemKeySchema,
    name: text(60).describe('"Size", "Topping", "Độ ngọt"'),
    required: z.boolean().optional().describe('A choice must be made (default: true when min ≥ 1)'),
    min: z.number().int().min(0).max(MENU_LIMITS.choices).optional().describe('Fewest choices (default: 1 when required, else 0)'),
    max: z.number().int().min(1).max(MENU_LIMITS.choices).describe('Most choices (1: pick one)'),
    choices: z.array(OptionChoiceBodySchema).min(1).max(MENU_LIMITS.choices),
  })
  .transform(normalizeGroup);

/** PUT …/items/{itemKey}: one dish or product of the menu. */
export const MerchantItemBodySchema = z
  .object({
    name: z.string().trim().min(2).max(120).describe('As on the menu: "Phở bò tái nạm"'),
    description: text(500).optional(),
    priceVnd: priceRange(0, 50_000_000).describe('Base price, VND (choices add their priceDeltaVnd)'),
    categoryKey: ItemKeySchema.describe('Its menu section: a key of the merchant’s menuSections (PUT …/menu/sections first)'),
    optionGroups: z.array(OptionGroupBodySchema).max(MENU_LIMITS.optionGroups).default([]),
    available: z.boolean().default(true).describe('false: turned off for now (hết món), shown greyed out'),
    stock: z
      .number()
      .int()
      .min(0)
      .max(100_000)
      .nullable()
      .default(null)
      .describe('Units left, taken by orders and given back by cancellations; null: not counted (cooked to order); 0: sold out'),
    requiresPrescription: z.boolean().default(false).describe('Prescription-only medicine: the order carries a prescription image'),
    position: z.number().int().min(0).max(9_999).optional().describe('Order within its section: lowest first, then by name'),
    photoIds: z.array(DocumentIdSchema).max(5).default([]).describe('Your READY image uploads (POST /upload/image), in display order'),
  })
  .superRefine((item, ctx) => {
    for (const p of optionGroupProblems(item.optionGroups)) ctx.addIssue({ code: 'custom', path: ['optionGroups', ...p.path], message: p.message });
  });

const PhotoSchema = z.object({ id: z.string(), url: z.string() });

export const MenuOptionGroupSchema = z
  .object({
    key: z.string(),
    name: z.string(),
    required: z.boolean(),
    min: z.number().int(),
    max: z.number().int(),
    choices: z.array(z.object({ key: z.string(), name: z.string(), priceDeltaVnd: z.number().int() })),
  })
  .meta({ id: 'MenuOptionGroup' });

/** An item as its managers see it (the kit adds merchantId, itemKey and updatedAt). */
export const MerchantItemViewSchema = z.object({
  name: z.string(),
  description: z.string().optional(),
  priceVnd: z.number().int(),
  categoryKey: z.string(),
  optionGroups: z.array(MenuOptionGroupSchema),
  available: z.boolean(),
  stock: z.number().int().nullable().optional().describe('Only to the merchant’s managers and administrators: units left; null: not counted'),
  inStock: z.boolean().describe('Can be ordered: available, and not sold out'),
  requiresPrescription: z.boolean(),
  position: z.number().int().optional(),
  photos: z.array(PhotoSchema),
});

export const MenuItemSchema = z
  .object({
    itemKey: z.string(),
    name: z.string(),
    description: z.string().optional(),
    priceVnd: z.number().int(),
    optionGroups: z.array(MenuOptionGroupSchema),
    photos: z.array(PhotoSchema),
    available: z.boolean().describe('false: the store turned it off for now'),
    soldOut: z.boolean().describe('Its counted stock is used up'),
    requiresPrescription: z.boolean(),
  })
  .meta({ id: 'MenuItem', description: 'Orderable when available and not soldOut.' });

export const MerchantMenuSchema = z
  .object({
    merchantId: z.string(),
    acceptingOrders: z.boolean().describe('Active, not paused and open now: an order can be placed'),
    openNow: z.boolean().nullable(),
    paused: z.boolean(),
    sections: z.array(
      z.object({
        key: z.string().describe('"" for items whose section was removed meanwhile (shown last)'),
        name: z.string(),
        items: z.array(MenuItemSchema),
      }),
    ),
  })
  .meta({ id: 'MerchantMenu' });

export const MenuSectionsBodySchema = z.object({ sections: SectionListSchema.describe('Every section, in display order') }).meta({ id: 'MenuSectionsBody' });
export const MenuSectionsSchema = z.object({ sections: z.array(MenuSectionSchema) });

export const AvailabilityBodySchema = z
  .object({
    items: uniqueKeys(
      z
        .array(z.object({ itemKey: ItemKeySchema, available: z.boolean() }))
        .min(1)
        .max(MENU_LIMITS.availabilityBatch),
      'itemKey',
      'change',
    ),
  })
  .meta({ id: 'MerchantItemsAvailabilityBody' });

const CategorySchema = z.object({ id: z.enum(MERCHANT_CATEGORIES), en: z.string(), vi: z.string() }).meta({ id: 'MerchantCategory' });
export const MerchantCategoriesSchema = z.object({ categories: z.array(CategorySchema) });
