// Catalog shape: records found by place, name and filters (stations, ATMs, stores) on the platform's catalog kit:
// one spec (details, filters, radius) gives the eleven catalog operations, partner membership from `partners`.
// Child items (menus, room types, doctors) and the kit's options: docs/adding-a-module.md (catalog section).

export function catalogFiles(n) {
  const { name, Name, entity, Entity, COLLECTION, collection, tag } = n;
  const files = {
    'index.ts': `// Public face of the ${name} module: the collection and the catalog service (favorites and reviews may check
// references through it once the module declares a target).
export { ${COLLECTION} } from './${name}.collections';
export function ${name}Service() {
  return (require('./${name}.wiring') as typeof import('./${name}.wiring')).${name}Catalog();
}
`,
    [`${name}.collections.ts`]: `// Collection names, apart from the schemas: the module definition (loaded at every cold start) needs only these.
/** \`${collection}/{id}\`: the ${entity} catalog (API only), each record's changes in \`events\`. */
export const ${COLLECTION} = '${collection}';
`,
    [`${name}.catalog.ts`]: `import { z } from 'zod';
import { defineCatalog } from '../../platform/kits/catalog/catalog.spec';
import { BooleanQuerySchema } from '../../platform/core/http/query';
import { ${COLLECTION} } from './${name}.collections';

// What a ${entity} record holds beside the kit's fields (name, place, phone, hours, photos, partner: keep their names
// out of the details), and its filters.
const details = z.object({
  capacity: z.number().int().min(1).max(100_000).optional().describe('How many people it takes'),
  accessible: z.boolean().optional().describe('Step-free access'),
});

export const ${entity}Catalog = defineCatalog({
  tag: '${tag}',
  collection: ${COLLECTION},
  basePath: '/${name}',
  noun: '${entity}',
  nouns: '${entity} records',
  schemaName: '${Entity}',
  pluralName: '${Entity}List',
  details,
  maxRadiusM: 10_000,
  filters: z.object({ accessible: BooleanQuerySchema.optional().describe('true: step-free access only') }),
  keep: (record, f) => !f.accessible || record.details.accessible === true,
});
`,
    [`${name}.wiring.ts`]: `import { catalogServiceOnce } from '../../platform/kits/catalog/catalog.service';
import { partnerCatalogDeps } from '../partners';
import { ${entity}Catalog } from './${name}.catalog';

export const ${name}Catalog = catalogServiceOnce(${entity}Catalog, () => partnerCatalogDeps);
`,
    [`${name}.routes.ts`]: `import { catalogRoutes } from '../../platform/kits/catalog/catalog.routes';
import type { AppContext } from '../../platform/core/http/module';
import type { AnyRoute } from '../../platform/core/http/route';
import { ${name}Catalog } from './${name}.wiring';

export function ${name}Routes(ctx: AppContext): AnyRoute[] {
  return [...catalogRoutes(${name}Catalog(), ctx.config)];
}
`,
    [`${name}.module.ts`]: `import { defineModule } from '../../platform/core/module/module';
import { cellIndexCollection } from '../../platform/kits/firestore/collections';
import { EVENTS } from '../../platform/kits/state-machine/state-machine';
import { ${COLLECTION} } from './${name}.collections';

// The ${entity} catalog (catalog shape: docs/adding-a-module.md).
export const ${name}Module = defineModule({
  name: '${name}',
  uses: ['partners'],
  routes: (ctx) => (require('./${name}.routes') as typeof import('./${name}.routes')).${name}Routes(ctx),
  collections: [{ name: ${COLLECTION} }, { name: EVENTS, parent: ${COLLECTION} }, cellIndexCollection(${COLLECTION})],
});
`,
  };
  const index = (fields) => ({ collectionGroup: collection, queryScope: 'COLLECTION', fields });
  const asc = (fieldPath) => ({ fieldPath, order: 'ASCENDING' });
  const desc = (fieldPath) => ({ fieldPath, order: 'DESCENDING' });
  return {
    files,
    // The catalog kit's queries (search, mine, admin list; nearby reads the cell index by id): the same four indexes every catalog has.
    indexes: [
      index([asc('status'), { fieldPath: 'terms', arrayConfig: 'CONTAINS' }, asc('nameFolded')]),
      index([asc('partnerId'), desc('updatedAt')]),
      index([asc('status'), desc('updatedAt')]),
      index([asc('status'), asc('partnerId'), desc('updatedAt')]),
    ],
    // The cell index nearby reads (cellIndexCollection): its maps are never queried, so nothing indexes them.
    fieldOverrides: ['c', 'e'].map((fieldPath) => ({ collectionGroup: `${collection}_cells`, fieldPath, indexes: [] })),
    notes: [
      'replace the details and filters of the catalog spec with the module\'s own',
      'to let users save and review its records, declare a target (`targets` in the definition; the module-definitions test lists them)',
    ],
    summary: `A catalog on the platform's catalog kit: ${entity} records found nearby and by name, managed by partners' staff or administrators (\`catalog.manage\`).`,
    endpoints: [
      { method: 'GET', path: `/${name}/nearby`, who: 'signed in', what: 'nearby, nearest first (`lat`, `lng`, `radiusM`, `accessible`)' },
      { method: 'GET', path: `/${name}/search`, who: 'signed in', what: 'by name' },
      { method: 'GET', path: `/${name}/{id}`, who: 'signed in', what: 'one record' },
      { method: 'POST', path: `/${name}`, who: 'partner staff, ADMIN', what: 'add one' },
      { method: 'PATCH', path: `/${name}/{id}`, who: 'its managers', what: 'change one' },
      { method: 'POST', path: `/${name}/admin/{id}/hide|restore`, who: 'ADMIN', what: 'hide or restore one' },
    ],
    testImports: `import { randomUUID } from 'node:crypto';
import { adminTokens, registerVerified } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { area } from '../../helpers/geo';`,
    testSummary: 'added by an administrator, found nearby with its filter, refused to users.',
    testBody: `describe('${name}', () => {
  it('an administrator adds records; users find them nearby, filtered; users cannot add one', async () => {
    const admin = await adminTokens();
    const user = await registerVerified();
    const here = area();
    const add = (d: number, extra: Record<string, unknown> = {}) =>
      call('POST', '/${name}', { token: admin.accessToken, body: { name: \`${Entity} \${d}\`, location: here.near(d), ...extra }, headers: { 'idempotency-key': randomUUID() } });
    const first = (await add(50, { accessible: true })).body;
    const second = (await add(150)).body;
    const near = (extra = '') => call('GET', \`/${name}/nearby?lat=\${here.lat}&lng=\${here.lng}&radiusM=3000\${extra}\`, { token: user.accessToken });
    const ids = (res: { body: { items: Array<{ id: string }> } }) => res.body.items.map((r) => r.id);
    expect(ids(await near())).toEqual([first.id, second.id]);
    expect(ids(await near('&accessible=true'))).toEqual([first.id]);
    expect((await near('&radiusM=-1')).status).toBe(400);
    const refused = await call('POST', '/${name}', { token: user.accessToken, body: { name: 'Mine', location: here.near(0) }, headers: { 'idempotency-key': randomUUID() } });
    expect(refused.status).toBe(403);
  });
});`,
  };
}
