// Lifecycle shape: an entity that moves through statuses (orders, bookings, tickets): a machine on the state-machine
// kit, a deadline on the deadlines kit (an OPEN one not accepted in time expires: by its task, or lazily when read or
// moved), a typed trigger that arms the deadline whoever wrote the record, and files split by concern: machine,
// deadline, lifecycle (the moves), repo, routes, tasks, triggers, and its config switch (how long staff have to accept).
// Pricing, settlement and ratings join as files of their own (docs/adding-a-module.md).

export function lifecycleFiles(n) {
  const { name, Name, entity, Entity, ENTITY, COLLECTION, collection, tag } = n;
  const QUEUE = `${ENTITY}_EXPIRY_QUEUE`;
  const idField = `${entity}Id`;
  const S = `${Entity}Status`;
  const A = `${Entity}Action`;
  const ACCEPT = `${ENTITY}_ACCEPT_WITHIN_SEC`;
  const files = {
    'index.ts': `// Public face of the ${name} module: the collection and the statuses (other modules read nothing else of it yet).
export { ${COLLECTION} } from './${name}.collections';
export { ${ENTITY}_STATUSES, type ${S} } from './${name}.machine';
`,
    [`${name}.collections.ts`]: `import { documentTaskQueue } from '../../platform/kits/tasks/tasks';

// Names and the task queue, apart from the model: the module definition (loaded at every cold start) needs only these.
/** \`${collection}/{id}\`: the ${entity} records (API only), each with its moves in \`events\`. */
export const ${COLLECTION} = '${collection}';
/** Expires an OPEN ${entity} at its deadline. */
export const ${QUEUE} = documentTaskQueue('${entity}Expiry', '${idField}');
`,
    [`${name}.module.ts`]: `import { defineModule, defineTask } from '../../platform/core/module/module';
import { EVENTS } from '../../platform/kits/state-machine/state-machine';
import { ${COLLECTION}, ${QUEUE} } from './${name}.collections';
import { ${n.NAME}_ERROR_CODES } from './${name}.errors';
import { ${name}Switches } from './${name}.config';

// ${Entity} records through their lifecycle (lifecycle shape: docs/adding-a-module.md).
export const ${name}Module = defineModule({
  name: '${name}',
  uses: [],
  config: ${name}Switches,
  errorCodes: ${n.NAME}_ERROR_CODES,
  routes: (ctx) => (require('./${name}.routes') as typeof import('./${name}.routes')).${name}Routes(ctx),
  tasks: {
    ${entity}Expiry: defineTask({
      queue: ${QUEUE},
      options: { retryConfig: { maxAttempts: 20, minBackoffSeconds: 60, maxBackoffSeconds: 900 }, rateLimits: { maxConcurrentDispatches: 50 }, timeoutSeconds: 60, memory: '256MiB' },
      load: () => (require('./${name}.tasks') as typeof import('./${name}.tasks')).on${Entity}Expiry,
    }),
  },
  triggers: {
    ${entity}StatusChanged: {
      document: \`\${${COLLECTION}}/{${idField}}\`,
      on: 'written',
      load: () => (require('./${name}.triggers') as typeof import('./${name}.triggers')).on${Entity}Written,
    },
  },
  collections: [{ name: ${COLLECTION} }, { name: EVENTS, parent: ${COLLECTION} }],
});
`,
    [`${name}.errors.ts`]: `import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The ${name} module's error codes (code: [the status it comes with, what it means]).
export const ${n.NAME}_ERROR_CODES = defineErrorCodes({
  ${ENTITY}_TRANSITION: [409, 'The ${entity} is not in a status that allows this (\`details.status\`, \`details.allowed\`).'],
  ${ENTITY}_NOT_ALLOWED: [409, 'The caller may not make this move on this ${entity}.'],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof ${n.NAME}_ERROR_CODES> {}
}
`,
    [`${name}.config.ts`]: `import { defineSwitches, positiveInt, type ConfigOf } from '../../platform/core/config/switches';

// The ${name} module's switches, validated with the platform's at every cold start (docs/configuration.md lists them).
export const ${name}Switches = defineSwitches({
  ${ACCEPT}: {
    schema: positiveInt(15 * 60, 24 * 3_600, 60),
    effect: 'how long staff have to accept an OPEN ${entity}: one not accepted by then EXPIRES (by its task, or when next read)',
  },
});

declare module '../../platform/core/config/switches' {
  interface ModuleConfig extends ConfigOf<typeof ${name}Switches> {}
}
`,
    [`${name}.machine.ts`]: `import { defineMachine } from '../../platform/kits/state-machine/state-machine';

// The ${entity}'s statuses and moves: staff accept an OPEN one in time (or it expires), then complete it; its owner or
// staff cancel it before it is done.
export const ${ENTITY}_STATUSES = ['OPEN', 'ACCEPTED', 'DONE', 'CANCELLED', 'EXPIRED'] as const;
export type ${S} = (typeof ${ENTITY}_STATUSES)[number];
export type ${A} = 'accept' | 'complete' | 'cancel' | 'expire';
export type ${Entity}Actor = 'OWNER' | 'STAFF' | 'SYSTEM';

export const ${entity}Machine = defineMachine<${S}, ${A}, ${Entity}Actor>({
  entity: '${entity}',
  states: ${ENTITY}_STATUSES,
  moves: {
    accept: { from: 'OPEN', to: 'ACCEPTED', by: 'STAFF' },
    complete: { from: 'ACCEPTED', to: 'DONE', by: 'STAFF' },
    cancel: { from: ['OPEN', 'ACCEPTED'], to: 'CANCELLED', by: ['OWNER', 'STAFF'] },
    expire: { from: 'OPEN', to: 'EXPIRED', by: 'SYSTEM' },
  },
  codes: { transition: '${ENTITY}_TRANSITION', actor: '${ENTITY}_NOT_ALLOWED' },
});

/** Statuses nothing leaves. */
export const isClosed = (status: ${S}): boolean => status === 'DONE' || status === 'CANCELLED' || status === 'EXPIRED';
`,
    [`${name}.model.ts`]: `import type { ${S} } from './${name}.machine';

export interface ${Entity}Record {
  id: string;
  ownerId: string;
  status: ${S};
  note: string | null;
  /** The deadline of an OPEN ${entity} (epoch ms): \`${ACCEPT}\` after its opening. */
  acceptBy: number;
  createdAt: number;
  updatedAt: number;
  closedAt: number | null;
}
`,
    [`${name}.deadline.ts`]: `import { defineDeadline } from '../../platform/kits/deadlines/deadlines';
import { ${QUEUE} } from './${name}.collections';
import { ${entity}Machine, type ${A}, type ${S} } from './${name}.machine';
import type { ${Entity}Record } from './${name}.model';

// An OPEN ${entity} not accepted by \`acceptBy\` expires: its task at that time, or the lazy check of a later read or move.
export const ${entity}Deadline = defineDeadline<${Entity}Record, ${S}, ${A}, '${idField}'>({
  queue: ${QUEUE},
  idField: '${idField}',
  taskId: (id) => \`expiry-\${id}\`,
  dueAt: (r) => (r.status === 'OPEN' ? r.acceptBy : null),
  expiry: { machine: ${entity}Machine, action: 'expire', by: 'system:${entity}-expiry', apply: (r, _to, at) => ({ ...r, updatedAt: at, closedAt: at }) },
  entity: '${entity}',
});
`,
    [`${name}.repo.ts`]: `import type { Transaction } from 'firebase-admin/firestore';
import { db } from '../../platform/core/firebase/firebase';
import { readRecord, typedCollection } from '../../platform/kits/firestore/records';
import { readHistory, type TransitionStore } from '../../platform/kits/state-machine/state-machine';
import { ${COLLECTION} } from './${name}.collections';
import type { ${A}, ${S} } from './${name}.machine';
import type { ${Entity}Record } from './${name}.model';

const records = () => typedCollection<${Entity}Record>(${COLLECTION});

export const ${name}Repo = {
  newId: () => db().collection(${COLLECTION}).doc().id,
  get: (id: string, tx?: Transaction) => readRecord(records().doc(id), tx),
  async create(record: ${Entity}Record): Promise<void> {
    await records().doc(record.id).create(record);
  },
  /** An owner's records, newest first. */
  async ofOwner(ownerId: string, limit: number): Promise<${Entity}Record[]> {
    const snap = await records().where('ownerId', '==', ownerId).orderBy('createdAt', 'desc').limit(limit).get();
    return snap.docs.map((d) => d.data());
  },
  /** The record as the state-machine kit moves it (its moves go to \`${collection}/{id}/events\`). */
  store(id: string): TransitionStore<${Entity}Record, ${S}, ${A}> {
    return {
      load: (tx) => readRecord(records().doc(id), tx),
      save: (tx, next) => {
        tx.set(records().doc(id), next);
      },
      ref: () => db().collection(${COLLECTION}).doc(id),
    };
  },
  history: (id: string) => readHistory<${S}, ${A}>(db().collection(${COLLECTION}).doc(id)),
};
`,
    [`${name}.lifecycle.ts`]: `import type { z } from 'zod';
import type { AppConfig } from '../../platform/core/config';
import { ConflictError, NotFoundError } from '../../platform/core/errors/app-error';
import { transition, type TransitionRequest } from '../../platform/kits/state-machine/state-machine';
import { iso, isoOrNull } from '../../platform/kits/time/time';
import { ${entity}Deadline } from './${name}.deadline';
import { isClosed, ${entity}Machine, type ${Entity}Actor, type ${A}, type ${S} } from './${name}.machine';
import type { ${Entity}Record } from './${name}.model';
import { ${name}Repo } from './${name}.repo';
import type { ${Entity}BodySchema } from './${name}.schemas';

/** Who acts: the caller, and whether they act as staff (an administrator). */
export interface ${Entity}Caller {
  userId: string;
  staff: boolean;
}

const notFound = () => new NotFoundError('No such ${entity}');
const LIST_LIMIT = 50;

export function ${entity}View(r: ${Entity}Record, caller: ${Entity}Caller) {
  return {
    id: r.id,
    ownerId: r.ownerId,
    status: r.status,
    note: r.note,
    acceptBy: iso(r.acceptBy),
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
    closedAt: isoOrNull(r.closedAt),
    allowed: ${entity}Machine.allowed(r.status, rolesOf(r, caller)),
  };
}

function rolesOf(r: ${Entity}Record, caller: ${Entity}Caller): ${Entity}Actor[] {
  return [...(r.ownerId === caller.userId ? (['OWNER'] as const) : []), ...(caller.staff ? (['STAFF'] as const) : [])];
}

// The moves of a ${entity}: opened by its owner, then each change through the machine in a transaction that expires it
// first when its deadline has passed (a late or lost task never leaves it OPEN).
export function create${Name}Lifecycle(config: Pick<AppConfig, '${ACCEPT}'>, now: () => number = Date.now) {
  const visibleTo = (caller: ${Entity}Caller) => (r: ${Entity}Record) => caller.staff || r.ownerId === caller.userId;
  const apply = (at: number) => (r: ${Entity}Record, to: ${S}) => ({ ...r, status: to, updatedAt: at, closedAt: isClosed(to) ? at : r.closedAt });
  const request = (action: ${A}, by: string, at: number): TransitionRequest<${Entity}Record, ${S}, ${A}, ${Entity}Actor> => ({
    action,
    by,
    rolesOf: () => ['SYSTEM'],
    apply: apply(at),
    now: at,
    missing: notFound,
    deadline: ${entity}Deadline.expiry(),
  });

  return {
    async open(ownerId: string, body: z.output<typeof ${Entity}BodySchema>) {
      const t = now();
      const record: ${Entity}Record = {
        id: ${name}Repo.newId(),
        ownerId,
        status: 'OPEN',
        note: body.note ?? null,
        acceptBy: t + config.${ACCEPT} * 1000,
        createdAt: t,
        updatedAt: t,
        closedAt: null,
      };
      await ${name}Repo.create(record);
      return ${entity}View(record, { userId: ownerId, staff: false });
    },

    async get(caller: ${Entity}Caller, id: string) {
      const found = await ${name}Repo.get(id);
      if (!found || !visibleTo(caller)(found)) throw notFound();
      return ${entity}View(${entity}Deadline.settle(found, now()).entity, caller);
    },

    async mine(caller: ${Entity}Caller) {
      const t = now();
      return (await ${name}Repo.ofOwner(caller.userId, LIST_LIMIT)).map((r) => ${entity}View(${entity}Deadline.settle(r, t).entity, caller));
    },

    async move(caller: ${Entity}Caller, id: string, action: Exclude<${A}, 'expire'>, reason: string | null = null) {
      const t = now();
      const moved = await transition(${entity}Machine, ${name}Repo.store(id), {
        ...request(action, caller.userId, t),
        rolesOf: (r) => rolesOf(r, caller),
        visible: visibleTo(caller),
        reason,
      });
      return ${entity}View(moved.after, caller);
    },

    /** The deadline task's move: tolerant (a ${entity} settled meanwhile stays as it is), never before it is due. */
    async expire(id: string) {
      const t = now();
      return transition(${entity}Machine, ${name}Repo.store(id), {
        ...request('expire', 'system:${entity}-expiry', t),
        guard: (r) => {
          if (${entity}Deadline.dueAt(r) !== null && !${entity}Deadline.isDue(r, t)) throw new ConflictError('Not due yet').withCode('${ENTITY}_TRANSITION');
        },
        tolerant: 'refused',
      });
    },

    history: (id: string) => ${name}Repo.history(id),
  };
}
`,
    [`${name}.schemas.ts`]: `import { z } from 'zod';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';
import { ${ENTITY}_STATUSES } from './${name}.machine';

export const ${Entity}BodySchema = z.object({ note: z.string().trim().min(1).max(500).optional() }).meta({ id: '${Entity}Body' });

export const ${Entity}ReasonSchema = z.object({ reason: z.string().trim().min(1).max(300).optional() }).meta({ id: '${Entity}Reason' });

export const ${Entity}Schema = z
  .object({
    id: z.string(),
    ownerId: z.string(),
    status: z.enum(${ENTITY}_STATUSES),
    note: z.string().nullable(),
    acceptBy: IsoTimeSchema.describe('An OPEN ${entity} not accepted by then expires'),
    createdAt: IsoTimeSchema,
    updatedAt: IsoTimeSchema,
    closedAt: IsoTimeSchema.nullable(),
    allowed: z.array(z.string()).describe('The moves the caller may make now'),
  })
  .meta({ id: '${Entity}' });

export const ${Entity}ListSchema = z.object({ items: z.array(${Entity}Schema) }).meta({ id: '${Entity}List' });
`,
    [`${name}.routes.ts`]: `import type { AppContext } from '../../platform/core/http/module';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { IdParamsSchema } from '../../platform/core/http/ids';
import { create${Name}Lifecycle, type ${Entity}Caller } from './${name}.lifecycle';
import { ${Entity}BodySchema, ${Entity}ListSchema, ${Entity}ReasonSchema, ${Entity}Schema } from './${name}.schemas';

export function ${name}Routes({ config }: AppContext): AnyRoute[] {
  const lifecycle = create${Name}Lifecycle(config);
  const tag = '${tag}' as const;
  const caller = (auth: { userId: string; roles: readonly string[] }): ${Entity}Caller => ({ userId: auth.userId, staff: auth.roles.includes('ADMIN') });
  const staffMove = (action: 'accept' | 'complete', summary: string) =>
    defineRoute({
      method: 'post',
      path: \`/${name}/admin/:id/\${action}\`,
      operationId: \`admin\${action.charAt(0).toUpperCase()}\${action.slice(1)}${Entity}\`,
      tag,
      summary,
      auth: ['ADMIN'],
      errors: [404, 409],
      codes: ['${ENTITY}_TRANSITION'],
      request: { params: IdParamsSchema, body: ${Entity}ReasonSchema },
      response: { description: 'The ${entity} after the move.', schema: ${Entity}Schema },
      handler: ({ auth, params, body }) => lifecycle.move(caller(auth!), params.id, action, body.reason ?? null),
    });
  return [
    defineRoute({
      method: 'post',
      path: '/${name}',
      operationId: 'open${Entity}',
      tag,
      summary: 'Open a ${entity}',
      description: 'OPEN until staff accept it; expires when not accepted by \`acceptBy\` (\`${ACCEPT}\` after opening).',
      auth: [],
      idempotent: true,
      request: { body: ${Entity}BodySchema },
      response: { status: 201, description: 'The OPEN ${entity}.', schema: ${Entity}Schema },
      handler: ({ auth, body }) => lifecycle.open(auth!.userId, body),
    }),
    defineRoute({
      method: 'get',
      path: '/${name}',
      operationId: 'list${Name}',
      tag,
      summary: 'My ${entity} records',
      auth: [],
      response: { description: 'Newest first (at most 50).', schema: ${Entity}ListSchema },
      handler: async ({ auth }) => ({ items: await lifecycle.mine(caller(auth!)) }),
    }),
    defineRoute({
      method: 'get',
      path: '/${name}/:id',
      operationId: 'get${Entity}',
      tag,
      summary: 'One ${entity} (its owner, or an administrator)',
      auth: [],
      errors: [404],
      request: { params: IdParamsSchema },
      response: { description: 'The ${entity} as it stands (expired if its deadline passed).', schema: ${Entity}Schema },
      handler: ({ auth, params }) => lifecycle.get(caller(auth!), params.id),
    }),
    defineRoute({
      method: 'post',
      path: '/${name}/:id/cancel',
      operationId: 'cancel${Entity}',
      tag,
      summary: 'Cancel a ${entity} before it is done (its owner, or an administrator)',
      auth: [],
      errors: [404, 409],
      codes: ['${ENTITY}_TRANSITION'],
      request: { params: IdParamsSchema, body: ${Entity}ReasonSchema },
      response: { description: 'The CANCELLED ${entity}.', schema: ${Entity}Schema },
      handler: ({ auth, params, body }) => lifecycle.move(caller(auth!), params.id, 'cancel', body.reason ?? null),
    }),
    staffMove('accept', 'Accept an OPEN ${entity} (ADMIN)'),
    staffMove('complete', 'Complete an ACCEPTED ${entity} (ADMIN)'),
  ];
}
`,
    [`${name}.tasks.ts`]: `import type { AppConfig } from '../../platform/core/config';
import { ${entity}Deadline } from './${name}.deadline';
import { create${Name}Lifecycle } from './${name}.lifecycle';
import { ${name}Repo } from './${name}.repo';

/** The expiry task (at least once): waits for the due time, then expires the ${entity} unless it was settled meanwhile. */
export async function on${Entity}Expiry(payload: { ${idField}: string }, config: Readonly<AppConfig>): Promise<void> {
  const lifecycle = create${Name}Lifecycle(config);
  await ${entity}Deadline.run(payload.${idField}, { load: (id) => ${name}Repo.get(id), expire: (id) => lifecycle.expire(id) });
}
`,
    [`${name}.triggers.ts`]: `import { collectionRecords, typedTrigger } from '../../platform/core/module/triggers';
import { ${entity}Deadline } from './${name}.deadline';
import type { ${Entity}Record } from './${name}.model';

/**
 * Arms the deadline of a ${entity} that entered a status with one, whoever wrote it (the API, a script, a console
 * edit): one task per ${entity}, so a redelivered event schedules nothing twice.
 */
export const on${Entity}Written = typedTrigger(collectionRecords<${Entity}Record>(), async (change) => {
  const after = change.after;
  if (!after || change.before?.status === after.status || ${entity}Deadline.dueAt(after) === null) return 'nothing due';
  await ${entity}Deadline.arm(${entity}Deadline.scheduler, after, Date.now());
  return 'armed';
});
`,
  };
  return {
    files,
    indexes: [
      {
        collectionGroup: collection,
        queryScope: 'COLLECTION',
        fields: [
          { fieldPath: 'ownerId', order: 'ASCENDING' },
          { fieldPath: 'createdAt', order: 'DESCENDING' },
        ],
      },
    ],
    notes: [
      'rename the statuses and moves of the machine to the entity\'s own; add pricing, settlement or ratings as files of their own',
      'events: the spec\'s rows for this module move from notifications/spec-events.ts into a <name>.events.ts (the event-matrix test refuses rows the spec lacks)',
    ],
    summary: `${/^[aeiou]/.test(entity) ? 'An' : 'A'} ${entity} is OPEN until staff accept it, then DONE when they complete it; its owner or staff cancel it before that, and an OPEN one not accepted within \`${ACCEPT}\` (15 minutes unless set) EXPIRES (by its task, or when next read). Each move is recorded in \`${collection}/{id}/events\`.`,
    endpoints: [
      { method: 'POST', path: `/${name}`, who: 'signed in', what: `open one (\`Idempotency-Key\`)` },
      { method: 'GET', path: `/${name}`, who: 'signed in', what: 'mine, newest first' },
      { method: 'GET', path: `/${name}/{id}`, who: 'its owner, ADMIN', what: 'read one, expired if its deadline passed; `allowed` lists the moves the caller may make' },
      { method: 'POST', path: `/${name}/{id}/cancel`, who: 'its owner, ADMIN', what: `cancel before DONE (409 \`${ENTITY}_TRANSITION\` after)` },
      { method: 'POST', path: `/${name}/admin/{id}/accept|complete`, who: 'ADMIN', what: 'accept an OPEN one, complete an ACCEPTED one' },
    ],
    testImports: `import { randomUUID } from 'node:crypto';
import { adminTokens, registerVerified } from '../../helpers/accounts';
import { call } from '../../helpers/api';`,
    testSummary: 'the moves by their actors, refusals, strangers.',
    testBody: `const open = (token: string, body: Record<string, unknown> = {}) =>
  call('POST', '/${name}', { token, body, headers: { 'idempotency-key': randomUUID() } });

describe('${name}', () => {
  it('OPEN → ACCEPTED → DONE by staff; a finished one cannot be cancelled; strangers see nothing', async () => {
    const owner = await registerVerified();
    const admin = await adminTokens();
    const opened = await open(owner.accessToken, { note: 'First' });
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({ status: 'OPEN', note: 'First', closedAt: null, allowed: ['cancel'] });
    const id = opened.body.id as string;

    expect((await call('POST', \`/${name}/admin/\${id}/accept\`, { token: owner.accessToken, body: {} })).status).toBe(403);
    const accepted = await call('POST', \`/${name}/admin/\${id}/accept\`, { token: admin.accessToken, body: {} });
    expect(accepted.body.status).toBe('ACCEPTED');
    const again = await call('POST', \`/${name}/admin/\${id}/accept\`, { token: admin.accessToken, body: {} });
    expect([again.status, again.body.code]).toEqual([409, '${ENTITY}_TRANSITION']);
    expect((await call('POST', \`/${name}/admin/\${id}/complete\`, { token: admin.accessToken, body: {} })).body.status).toBe('DONE');
    const late = await call('POST', \`/${name}/\${id}/cancel\`, { token: owner.accessToken, body: {} });
    expect([late.status, late.body.code]).toEqual([409, '${ENTITY}_TRANSITION']);

    const stranger = await registerVerified();
    expect((await call('GET', \`/${name}/\${id}\`, { token: stranger.accessToken })).status).toBe(404);
    expect((await call('POST', \`/${name}/\${id}/cancel\`, { token: stranger.accessToken, body: {} })).status).toBe(404);
    const mine = await call('GET', '/${name}', { token: owner.accessToken });
    expect(mine.body.items.map((r: { id: string; status: string }) => [r.id, r.status])).toEqual([[id, 'DONE']]);
  });

  it('its owner cancels an OPEN one once; bad input is 400', async () => {
    const owner = await registerVerified();
    const id = (await open(owner.accessToken)).body.id as string;
    const cancelled = await call('POST', \`/${name}/\${id}/cancel\`, { token: owner.accessToken, body: { reason: 'Changed my mind' } });
    expect(cancelled.body).toMatchObject({ status: 'CANCELLED', allowed: [] });
    expect(cancelled.body.closedAt).toEqual(expect.any(String));
    expect((await call('POST', \`/${name}/\${id}/cancel\`, { token: owner.accessToken, body: {} })).status).toBe(409);
    expect((await open(owner.accessToken, { note: '' })).status).toBe(400);
    expect((await call('GET', '/${name}')).status).toBe(401);
  });
});`,
  };
}
