import { ConflictError, ValidationError, type FieldProblem } from '../../platform/core/errors/app-error';
import { addVnd, vnd } from '../../platform/kits/money/money';
import { MENU_LIMITS, type MenuOptionGroup } from './merchants.model';
import type { LineRequest, PricedLine } from './merchants.sellers.types';

// Prices order lines from the stored menu, never from the client: every line checked (400 naming lines.N…), then
// items turned off (409 ITEM_UNAVAILABLE). Pure: the sellers face reads the items and checks stock around it.

/** What pricing needs of a stored item (a menu item, a pharmacy product). */
export interface PricingItem {
  name: string;
  priceVnd: number;
  optionGroups: readonly MenuOptionGroup[];
  available: boolean;
  requiresPrescription: boolean;
}

type At = (...path: Array<string | number>) => string;
type Chosen = PricedLine['options'];

const isCount = (n: unknown, min: number, max: number): n is number => typeof n === 'number' && Number.isInteger(n) && n >= min && n <= max;

/** The choices of one line, checked against the item's groups (problems pushed with their paths). */
function chooseOptions(groups: readonly MenuOptionGroup[], options: unknown, at: At, problems: FieldProblem[]): Chosen {
  if (options !== undefined && !Array.isArray(options)) {
    problems.push({ field: at('options'), message: 'must be a list of { group, choices }' });
    return [];
  }
  const picked = new Map<string, string[]>();
  ((options ?? []) as Array<{ group?: unknown; choices?: unknown }>).forEach((opt, j) => {
    const group = groups.find((g) => g.key === opt?.group);
    if (!group || picked.has(group.key)) {
      problems.push({ field: at('options', j, 'group'), message: group ? 'this group is chosen from twice' : 'no such option group on this item' });
      return;
    }
    picked.set(group.key, []);
    if (!Array.isArray(opt.choices)) {
      problems.push({ field: at('options', j, 'choices'), message: 'must be a list of choice keys' });
      return;
    }
    const choices = opt.choices as unknown[];
    choices.forEach((key, k) => {
      if (!group.choices.some((c) => c.key === key)) problems.push({ field: at('options', j, 'choices', k), message: `not a choice of ${group.name}` });
      else if (choices.indexOf(key) !== k) problems.push({ field: at('options', j, 'choices', k), message: 'chosen twice' });
    });
    if (choices.length < group.min || choices.length > group.max)
      problems.push({
        field: at('options', j, 'choices'),
        message: `choose ${group.min === group.max ? group.min : `${group.min} to ${group.max}`} of ${group.name}`,
      });
    picked.set(group.key, choices as string[]);
  });
  for (const group of groups)
    if (group.min >= 1 && !picked.has(group.key)) problems.push({ field: at('options'), message: `${group.name} (${group.key}) is required` });
  return groups
    .filter((g) => (picked.get(g.key) ?? []).length > 0)
    .map((g) => ({
      group: g.key,
      groupName: g.name,
      choices: g.choices.filter((c) => picked.get(g.key)!.includes(c.key)).map((c) => ({ key: c.key, name: c.name, priceDeltaVnd: c.priceDeltaVnd })),
    }));
}

function priceLine(line: LineRequest, i: number, itemOf: (key: string) => PricingItem | undefined, problems: FieldProblem[]): PricedLine | undefined {
  const at: At = (...path) => ['lines', i, ...path].join('.');
  const before = problems.length;
  if (!isCount(line?.quantity, 1, MENU_LIMITS.quantity))
    problems.push({ field: at('quantity'), message: `must be a whole number from 1 to ${MENU_LIMITS.quantity}` });
  const note = typeof line?.note === 'string' ? line.note.trim() : undefined;
  if (line?.note !== undefined && (note === undefined || Array.from(note).length > MENU_LIMITS.note))
    problems.push({ field: at('note'), message: `must be text of at most ${MENU_LIMITS.note} characters` });
  const item = typeof line?.itemKey === 'string' ? itemOf(line.itemKey) : undefined;
  if (!item) {
    problems.push({ field: at('itemKey'), message: 'no such item at this seller' });
    return undefined;
  }
  const options = chooseOptions(item.optionGroups, line.options, at, problems);
  if (problems.length > before) return undefined;
  const unitPriceVnd = addVnd(vnd(item.priceVnd), ...options.flatMap((g) => g.choices.map((c) => vnd(c.priceDeltaVnd))));
  return {
    itemKey: line.itemKey,
    name: item.name,
    quantity: line.quantity,
    unitPriceVnd,
    lineTotalVnd: vnd(unitPriceVnd * line.quantity),
    options,
    requiresPrescription: item.requiresPrescription,
    ...(note ? { note } : {}),
  };
}

/** Every line priced from `itemOf` (the stored items); 400 with every problem's path, then 409 ITEM_UNAVAILABLE. */
export function priceLines(lines: readonly LineRequest[], itemOf: (key: string) => PricingItem | undefined): PricedLine[] {
  if (!Array.isArray(lines) || lines.length < 1 || lines.length > MENU_LIMITS.lines)
    throw new ValidationError(`Validation failed: lines: 1 to ${MENU_LIMITS.lines} lines`, [
      { field: 'lines', message: `must hold 1 to ${MENU_LIMITS.lines} lines` },
    ]);
  const problems: FieldProblem[] = [];
  const priced = lines.map((line, i) => priceLine(line, i, itemOf, problems));
  if (problems.length > 0) throw new ValidationError(`Validation failed: ${problems[0].field}: ${problems[0].message}`, problems);
  const off = lines.find((line) => !itemOf(line.itemKey)!.available);
  if (off) throw new ConflictError(`${itemOf(off.itemKey)!.name} is not available now`, { itemKey: off.itemKey }).withCode('ITEM_UNAVAILABLE');
  return priced as PricedLine[];
}
