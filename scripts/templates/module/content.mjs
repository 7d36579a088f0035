// Content shape: records a user owns (saved addresses, notes, lists): list, create, read, change, delete; each
// change in a transaction that reads the user's records (the limit and ownership hold under parallel requests).

export function contentFiles(n) {
  const { name, Name, entity, Entity, ENTITY, COLLECTION, collection, tag } = n;
  const LIMIT = `${n.NAME}_PER_USER`;
  const files = {
    'index.ts': `// Public face of the ${name} module: the collection name (other modules read nothing else of it yet).
export { ${COLLECTION} } from './${name}.model';
`,
    [`${name}.module.ts`]: `import { defineModule } from '../../platform/core/module/module';
import { ${n.NAME}_ERROR_CODES } from './${name}.errors';
import { ${COLLECTION} } from './${name}.model';

// Each user's own ${entity} records (content shape: docs/adding-a-module.md).
export const ${name}Module = defineModule({
  name: '${name}',
  uses: [],
  errorCodes: ${n.NAME}_ERROR_CODES,
  routes: () => (require('./${name}.routes') as typeof import('./${name}.routes')).${name}Routes(),
  collections: [{ name: ${COLLECTION} }],
});
`,
    [`${name}.errors.ts`]: `import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The ${name} module's error codes (code: [the status it comes with, what it means]).
export const ${n.NAME}_ERROR_CODES = defineErrorCodes({
  ${ENTITY}_LIMIT: [409, 'A user keeps at most 100 of these (\`details.limit\`): delete one first.'],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof ${n.NAME}_ERROR_CODES> {}
}
`,
    [`${name}.model.ts`]: `// \`${collection}/{id}\`: a user's ${entity} records (API only: firestore.rules denies clients).
export const ${COLLECTION} = '${collection}';
/** How many one user keeps. */
export const ${LIMIT} = 100;

export interface ${Entity}Record {
  id: string;
  userId: string;
  title: string;
  text: string | null;
  createdAt: number;
  updatedAt: number;
}
`,
    [`${name}.repo.ts`]: `import type { Transaction } from 'firebase-admin/firestore';
import { db } from '../../platform/core/firebase/firebase';
import { readRecord, typedCollection } from '../../platform/kits/firestore/records';
import { ${COLLECTION}, ${LIMIT}, type ${Entity}Record } from './${name}.model';

const records = () => typedCollection<${Entity}Record>(${COLLECTION});

export const ${name}Repo = {
  newId: () => db().collection(${COLLECTION}).doc().id,
  /** A user's records, newest first: at most the limit and one more (so a full list shows). */
  async ofUser(userId: string, tx?: Transaction): Promise<${Entity}Record[]> {
    const query = records().where('userId', '==', userId).orderBy('createdAt', 'desc').limit(${LIMIT} + 1);
    const snap = tx ? await tx.get(query) : await query.get();
    return snap.docs.map((d) => d.data());
  },
  get: (id: string, tx?: Transaction) => readRecord(records().doc(id), tx),
  create(tx: Transaction, record: ${Entity}Record): void {
    tx.create(records().doc(record.id), record);
  },
  update(tx: Transaction, id: string, fields: Partial<Pick<${Entity}Record, 'title' | 'text' | 'updatedAt'>>): void {
    tx.update(db().collection(${COLLECTION}).doc(id), fields);
  },
  remove(tx: Transaction, id: string): void {
    tx.delete(db().collection(${COLLECTION}).doc(id));
  },
};
`,
    [`${name}.schemas.ts`]: `import { z } from 'zod';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';

const title = z.string().trim().min(1).max(120);
const text = z.string().trim().min(1).max(2000);

export const ${Entity}BodySchema = z.object({ title, text: text.optional() }).meta({ id: '${Entity}Body' });

export const ${Entity}PatchSchema = z
  .object({ title: title.optional(), text: text.nullable().optional() })
  .refine((p) => p.title !== undefined || p.text !== undefined, { message: 'name at least one field to change' })
  .meta({ id: '${Entity}Patch', description: 'null clears the text' });

export const ${Entity}Schema = z
  .object({ id: z.string(), title: z.string(), text: z.string().nullable(), createdAt: IsoTimeSchema, updatedAt: IsoTimeSchema })
  .meta({ id: '${Entity}' });

export const ${Entity}ListSchema = z.object({ items: z.array(${Entity}Schema) }).meta({ id: '${Entity}List' });
`,
    [`${name}.service.ts`]: `import type { z } from 'zod';
import type { Transaction } from 'firebase-admin/firestore';
import { ConflictError, NotFoundError } from '../../platform/core/errors/app-error';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { iso } from '../../platform/kits/time/time';
import { ${LIMIT}, type ${Entity}Record } from './${name}.model';
import { ${name}Repo } from './${name}.repo';
import type { ${Entity}BodySchema, ${Entity}PatchSchema } from './${name}.schemas';

export function ${entity}View(r: ${Entity}Record) {
  return { id: r.id, title: r.title, text: r.text, createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt) };
}

// Another user's record answers as a missing one: ids are not a way to learn what exists.
const notFound = () => new NotFoundError('No such ${entity}');

async function owned(userId: string, id: string, tx?: Transaction): Promise<${Entity}Record> {
  const found = await ${name}Repo.get(id, tx);
  if (!found || found.userId !== userId) throw notFound();
  return found;
}

export function create${Name}Service(now: () => number = Date.now) {
  return {
    async list(userId: string) {
      return (await ${name}Repo.ofUser(userId)).slice(0, ${LIMIT}).map(${entity}View);
    },

    async get(userId: string, id: string) {
      return ${entity}View(await owned(userId, id));
    },

    async create(userId: string, body: z.output<typeof ${Entity}BodySchema>) {
      const t = now();
      const record: ${Entity}Record = { id: ${name}Repo.newId(), userId, title: body.title, text: body.text ?? null, createdAt: t, updatedAt: t };
      await inTransaction(async (tx) => {
        const mine = await ${name}Repo.ofUser(userId, tx);
        if (mine.length >= ${LIMIT})
          throw new ConflictError(\`At most \${${LIMIT}} per user: delete one first\`, { limit: ${LIMIT} }).withCode('${ENTITY}_LIMIT');
        ${name}Repo.create(tx, record);
      });
      return ${entity}View(record);
    },

    async update(userId: string, id: string, patch: z.output<typeof ${Entity}PatchSchema>) {
      return inTransaction(async (tx) => {
        const before = await owned(userId, id, tx);
        const fields = { ...(patch.title !== undefined ? { title: patch.title } : {}), ...(patch.text !== undefined ? { text: patch.text } : {}), updatedAt: now() };
        ${name}Repo.update(tx, id, fields);
        return ${entity}View({ ...before, ...fields });
      });
    },

    async remove(userId: string, id: string) {
      await inTransaction(async (tx) => {
        await owned(userId, id, tx);
        ${name}Repo.remove(tx, id);
      });
      return { deleted: true as const };
    },
  };
}
`,
    [`${name}.routes.ts`]: `import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { DeletedSchema, IdParamsSchema } from '../../platform/core/http/ids';
import { ${Entity}BodySchema, ${Entity}ListSchema, ${Entity}PatchSchema, ${Entity}Schema } from './${name}.schemas';
import { create${Name}Service } from './${name}.service';

export function ${name}Routes(): AnyRoute[] {
  const service = create${Name}Service();
  const common = { tag: '${tag}' as const, auth: [] as const };
  return [
    defineRoute({
      ...common,
      method: 'get',
      path: '/${name}',
      operationId: 'list${Name}',
      summary: 'My ${entity} records',
      response: { description: 'Newest first (at most 100).', schema: ${Entity}ListSchema },
      handler: async ({ auth }) => ({ items: await service.list(auth!.userId) }),
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: '/${name}',
      operationId: 'create${Entity}',
      summary: 'Add a ${entity}',
      description: 'At most 100 per user (409 ${ENTITY}_LIMIT).',
      idempotent: true,
      codes: ['${ENTITY}_LIMIT'],
      request: { body: ${Entity}BodySchema },
      response: { status: 201, description: 'The new ${entity}.', schema: ${Entity}Schema },
      handler: ({ auth, body }) => service.create(auth!.userId, body),
    }),
    defineRoute({
      ...common,
      method: 'get',
      path: '/${name}/:id',
      operationId: 'get${Entity}',
      summary: 'One of my ${entity} records',
      errors: [404],
      request: { params: IdParamsSchema },
      response: { description: 'The ${entity}.', schema: ${Entity}Schema },
      handler: ({ auth, params }) => service.get(auth!.userId, params.id),
    }),
    defineRoute({
      ...common,
      method: 'patch',
      path: '/${name}/:id',
      operationId: 'update${Entity}',
      summary: 'Change one of my ${entity} records',
      errors: [404],
      request: { params: IdParamsSchema, body: ${Entity}PatchSchema },
      response: { description: 'The ${entity} after the change.', schema: ${Entity}Schema },
      handler: ({ auth, params, body }) => service.update(auth!.userId, params.id, body),
    }),
    defineRoute({
      ...common,
      method: 'delete',
      path: '/${name}/:id',
      operationId: 'delete${Entity}',
      summary: 'Delete one of my ${entity} records',
      errors: [404],
      request: { params: IdParamsSchema },
      response: { description: 'Deleted.', schema: DeletedSchema },
      handler: ({ auth, params }) => service.remove(auth!.userId, params.id),
    }),
  ];
}
`,
  };
  return {
    files,
    indexes: [
      {
        collectionGroup: collection,
        queryScope: 'COLLECTION',
        fields: [
          { fieldPath: 'userId', order: 'ASCENDING' },
          { fieldPath: 'createdAt', order: 'DESCENDING' },
        ],
      },
    ],
    notes: ['rename the fields of the record (title, text) to what the module keeps'],
    summary: 'Each signed-in user keeps their own records (at most 100); another user\'s record answers 404.',
    endpoints: [
      { method: 'GET', path: `/${name}`, who: 'signed in', what: 'my records, newest first' },
      { method: 'POST', path: `/${name}`, who: 'signed in', what: `add one (\`Idempotency-Key\`; 409 \`${ENTITY}_LIMIT\` past 100)` },
      { method: 'GET', path: `/${name}/{id}`, who: 'its owner', what: 'read one' },
      { method: 'PATCH', path: `/${name}/{id}`, who: 'its owner', what: 'change the title or text (null clears the text)' },
      { method: 'DELETE', path: `/${name}/{id}`, who: 'its owner', what: 'delete one' },
    ],
    testImports: `import { randomUUID } from 'node:crypto';
import { registerVerified } from '../../helpers/accounts';
import { call } from '../../helpers/api';`,
    testSummary: 'owners only, bad input refused.',
    testBody: `describe('${name}', () => {
  it('adds, lists, changes and deletes my records; another user sees none of them', async () => {
    const me = await registerVerified();
    const add = (body: Record<string, unknown>) => call('POST', '/${name}', { token: me.accessToken, body, headers: { 'idempotency-key': randomUUID() } });
    const first = await add({ title: 'First', text: 'Some text' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ title: 'First', text: 'Some text' });
    const second = (await add({ title: 'Second' })).body;
    expect((await call('GET', '/${name}', { token: me.accessToken })).body.items.map((r: { id: string }) => r.id)).toEqual([second.id, first.body.id]);

    const changed = await call('PATCH', \`/${name}/\${first.body.id}\`, { token: me.accessToken, body: { text: null } });
    expect(changed.body).toMatchObject({ id: first.body.id, title: 'First', text: null });
    expect((await call('GET', \`/${name}/\${first.body.id}\`, { token: me.accessToken })).body.text).toBeNull();

    const other = await registerVerified();
    for (const [method, path] of [
      ['GET', \`/${name}/\${second.id}\`],
      ['PATCH', \`/${name}/\${second.id}\`],
      ['DELETE', \`/${name}/\${second.id}\`],
    ] as const)
      expect((await call(method, path, { token: other.accessToken, body: method === 'PATCH' ? { title: 'Mine now' } : undefined })).status).toBe(404);
    expect((await call('GET', '/${name}', { token: other.accessToken })).body.items).toEqual([]);

    expect((await call('DELETE', \`/${name}/\${second.id}\`, { token: me.accessToken })).status).toBe(200);
    expect((await call('GET', \`/${name}/\${second.id}\`, { token: me.accessToken })).status).toBe(404);
  });

  it('refuses bad input and strangers', async () => {
    const me = await registerVerified();
    const bad = await call('POST', '/${name}', { token: me.accessToken, body: { title: '' }, headers: { 'idempotency-key': randomUUID() } });
    expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect((await call('PATCH', '/${name}/x1', { token: me.accessToken, body: {} })).status).toBe(400);
    expect((await call('GET', '/${name}')).status).toBe(401);
  });
});`,
  };
}
