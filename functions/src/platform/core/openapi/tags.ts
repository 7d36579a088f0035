import { MODULE_LISTS } from '../module/module-lists.generated';

// The spec's functional areas (API tags). A module declares the tags it serves with their descriptions
// (`apiTags` of its definition, module-lists.generated.ts lists their names); the areas no module serves yet wait
// here with theirs, and a module that comes to serve one moves its row into its definition. The OpenAPI tag list is
// generated from the tags that have operations, in name order.
export const PLANNED_TAGS = {} as const;

export type ApiTag = (typeof MODULE_LISTS.apiTags)[number] | keyof typeof PLANNED_TAGS;

/** Every tag with its description (the modules' and the planned ones), in name order. */
export function apiTagTable(modules: ReadonlyArray<{ apiTags?: Readonly<Record<string, string>> }>): Record<string, string> {
  const table: Record<string, string> = { ...PLANNED_TAGS };
  for (const m of modules) Object.assign(table, m.apiTags);
  return Object.fromEntries(
    Object.keys(table)
      .sort()
      .map((name) => [name, table[name]]),
  );
}
