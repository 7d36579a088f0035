import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import {
  collectionProblems,
  functionRegionProblems,
  indexProblems,
  productionEnvProblems,
  rewriteProblems,
  runtimeProblems,
  scalingProblems,
  undocumentedSecrets,
  type RuntimeSupport,
} from '../../src/platform/core/deploy/checks';
import { missingIndexes, requiredIndex, type CompositeIndex } from '../../src/platform/core/deploy/indexes';
import type { QueryShape } from '../../src/platform/core/deploy/query-log';
import { shapeOf } from '../../src/platform/core/deploy/query-log';
import { declaredSecrets, functionsRegion, instanceLimits } from '../../src/platform/core/deploy/settings';

const root = path.join(__dirname, '..', '..', '..');
const readEnv = (file: string) => parseEnv(fs.readFileSync(path.join(root, 'functions', file), 'utf8')) as Record<string, string>;
const productionEnv = { ...readEnv('.env'), ...readEnv('.env.superapp-vn') };

describe('deploy:check — the production env file', () => {
  it('the committed project file passes the production rules with its declared secrets', () => {
    expect(productionEnvProblems(productionEnv, declaredSecrets(productionEnv))).toEqual([]);
  });

  it('fails on development values: a mock gateway, a dev OTP code, a local address, local storage', () => {
    const problems = productionEnvProblems(
      { ...productionEnv, PAYMENTS_MOCK: 'true', OTP_DEV_CODE: '123456', SMTP_HOST: '127.0.0.1', STORAGE_DRIVER: 'local' },
      declaredSecrets(productionEnv),
    );
    expect(problems.join('\n')).toMatch(/PAYMENTS_MOCK must be false/);
    expect(problems.join('\n')).toMatch(/OTP_DEV_CODE must not be set/);
    expect(problems.join('\n')).toMatch(/SMTP_HOST=127\.0\.0\.1 points at this machine/);
    expect(problems.join('\n')).toMatch(/STORAGE_DRIVER=local/);
  });

  it('fails on a secret written into the env file, an unknown secret name and a bad region', () => {
    const env = { ...productionEnv, SMTP_PASS: 'hunter2', FUNCTIONS_REGION: 'Singapore' };
    const problems = productionEnvProblems(env, [...declaredSecrets(env), 'NOT_A_SECRET']);
    expect(problems.join('\n')).toMatch(/SMTP_PASS is written in the env file/);
    expect(problems.join('\n')).toMatch(/NOT_A_SECRET, which is not a secret/);
    expect(problems.join('\n')).toMatch(/FUNCTIONS_REGION "Singapore"/);
  });

  it('reads the region and the secrets from the env, with Singapore and the JWT pair by default', () => {
    expect(functionsRegion({})).toBe('asia-southeast1');
    expect(functionsRegion({ FUNCTIONS_REGION: 'asia-east1' })).toBe('asia-east1');
    expect(declaredSecrets({})).toEqual(['JWT_SECRET', 'JWT_REFRESH_SECRET']);
    expect(declaredSecrets({ FUNCTIONS_SECRETS: 'SMTP_PASS, JWT_SECRET' })).toEqual(['JWT_SECRET', 'JWT_REFRESH_SECRET', 'SMTP_PASS']);
  });

  it('every secret the project declares is in the deploy guide (docs/deploying.md), and a missing one is named', () => {
    const guide = fs.readFileSync(path.join(root, 'docs', 'deploying.md'), 'utf8');
    expect(undocumentedSecrets(declaredSecrets(productionEnv), guide)).toEqual([]);
    expect(undocumentedSecrets(['JWT_SECRET', 'TWILIO_AUTH_TOKEN'], 'firebase functions:secrets:set JWT_SECRET')).toEqual(['TWILIO_AUTH_TOKEN']);
  });
});

describe('deploy:check — functions and Hosting rewrites', () => {
  const regions = { api: ['asia-southeast1'], deliverMessage: ['asia-southeast1'] };
  const firebaseJson = JSON.parse(fs.readFileSync(path.join(root, 'firebase.json'), 'utf8')) as {
    hosting: { rewrites: Array<{ source: string; function?: { functionId: string; region: string } }> };
  };

  it("the repository's rewrites point at the api function in the default region", () => {
    expect(rewriteProblems(firebaseJson.hosting.rewrites, regions, 'asia-southeast1')).toEqual([]);
  });

  it('fails on a rewrite in another region, to a function that does not exist, or a function elsewhere', () => {
    const wrong = [
      { source: '/api/**', function: { functionId: 'api', region: 'us-central1' } },
      { source: '/x', function: { functionId: 'gone', region: 'asia-southeast1' } },
      { source: '/y', function: 'api' },
    ];
    const problems = rewriteProblems(wrong, regions, 'asia-southeast1');
    expect(problems).toEqual([
      'rewrite /api/** → api names region us-central1; the functions run in asia-southeast1 (FUNCTIONS_REGION)',
      'rewrite /x → gone: no such function in the entry',
      'rewrite /y → api names region us-central1; the functions run in asia-southeast1 (FUNCTIONS_REGION)',
    ]);
    expect(functionRegionProblems({ api: ['us-central1'], other: ['asia-southeast1'] }, 'asia-southeast1')).toEqual([
      'function api runs in us-central1, not asia-southeast1',
    ]);
  });
});

describe('deploy:check — collections and indexes', () => {
  it('fails without a deny-all catch-all and on a TTL field without its policy', () => {
    const collections = [
      { name: 'otps', ttlField: 'expireAt' },
      { name: 'rides', clientAccess: true },
    ];
    expect(collectionProblems(collections, 'service cloud.firestore {}', [])).toEqual([
      'firestore.rules has no deny-all catch-all: collections without a block would be open',
      'collection otps expires documents by expireAt but firestore.indexes.json has no TTL policy for it',
      'collection rides is read by clients but has no rules block',
    ]);
  });

  it('fails on a field kept out of every index without its exemption (the maps of a cell index)', () => {
    const collections = [{ name: 'places_cells', unindexed: ['c', 'e'] }];
    const rules = 'match /{document=**} { allow read, write: if false; }';
    expect(collectionProblems(collections, rules, [{ collectionGroup: 'places_cells', fieldPath: 'c', indexes: [] }])).toEqual([
      'collection places_cells keeps e out of every index but firestore.indexes.json has no fieldOverrides entry with "indexes": [] for it',
    ]);
    const exempt = ['c', 'e'].map((fieldPath) => ({ collectionGroup: 'places_cells', fieldPath, indexes: [] }));
    expect(collectionProblems(collections, rules, exempt)).toEqual([]);
    expect(collectionProblems(collections, rules, [{ ...exempt[0], indexes: [{ order: 'ASCENDING' }] }, exempt[1]])).toHaveLength(1);
  });

  const q = (filters: QueryShape['filters'], orderBy: QueryShape['orderBy'] = [], collection = 'rides'): QueryShape => ({
    collection,
    collectionGroup: false,
    filters,
    orderBy,
  });
  const index = (fields: CompositeIndex['fields'], collectionGroup = 'rides'): CompositeIndex => ({ collectionGroup, queryScope: 'COLLECTION', fields });

  it('knows which queries single-field indexes serve', () => {
    expect(requiredIndex(q([{ field: 'riderId', op: 'EQUAL' }]))).toBeUndefined();
    expect(
      requiredIndex(
        q([
          { field: 'riderId', op: 'EQUAL' },
          { field: 'status', op: 'IN' },
        ]),
      ),
    ).toBeUndefined(); // merged
    expect(requiredIndex(q([{ field: 'createdAt', op: 'GREATER_THAN' }], [{ field: 'createdAt', direction: 'DESCENDING' }]))).toBeUndefined();
    expect(
      requiredIndex(
        q(
          [{ field: 'riderId', op: 'EQUAL' }],
          [
            { field: 'riderId', direction: 'ASCENDING' },
            { field: '__name__', direction: 'ASCENDING' },
          ],
        ),
      ),
    ).toBeUndefined();
    expect(requiredIndex(q([{ field: 'tags', op: 'ARRAY_CONTAINS' }]))).toBeUndefined();
  });

  it('requires the composite index of an equality with an order, and accepts it declared (or reversed)', () => {
    const query = q(
      [{ field: 'riderId', op: 'EQUAL' }],
      [
        { field: 'createdAt', direction: 'DESCENDING' },
        { field: '__name__', direction: 'DESCENDING' },
      ],
    );
    expect(indexProblems([query], [])).toHaveLength(1);
    expect(indexProblems([query], [])[0]).toMatch(/query on rides \(riderId EQUAL, order createdAt DESCENDING, order __name__ DESCENDING\) needs the index/);
    expect(
      missingIndexes(
        [query],
        [
          index([
            { fieldPath: 'riderId', order: 'ASCENDING' },
            { fieldPath: 'createdAt', order: 'DESCENDING' },
          ]),
        ],
      ),
    ).toEqual([]);
    expect(
      missingIndexes(
        [query],
        [
          index([
            { fieldPath: 'riderId', order: 'ASCENDING' },
            { fieldPath: 'createdAt', order: 'ASCENDING' },
          ]),
        ],
      ),
    ).toEqual([]); // scanned backwards
    // the wrong collection, the wrong scope or another order field do not serve it
    expect(
      missingIndexes(
        [query],
        [
          index(
            [
              { fieldPath: 'riderId', order: 'ASCENDING' },
              { fieldPath: 'createdAt', order: 'DESCENDING' },
            ],
            'orders',
          ),
        ],
      ),
    ).toHaveLength(1);
    expect(
      missingIndexes(
        [query],
        [
          {
            ...index([
              { fieldPath: 'riderId', order: 'ASCENDING' },
              { fieldPath: 'createdAt', order: 'DESCENDING' },
            ]),
            queryScope: 'COLLECTION_GROUP',
          },
        ],
      ),
    ).toHaveLength(1);
    expect(
      missingIndexes(
        [query],
        [
          index([
            { fieldPath: 'riderId', order: 'ASCENDING' },
            { fieldPath: 'updatedAt', order: 'DESCENDING' },
          ]),
        ],
      ),
    ).toHaveLength(1);
  });

  it('orders a range filter by its field after the equalities, and keeps array membership as CONTAINS', () => {
    const ranged = q([
      { field: 'status', op: 'EQUAL' },
      { field: 'geohash', op: 'GREATER_THAN_OR_EQUAL' },
      { field: 'geohash', op: 'LESS_THAN' },
    ]);
    expect(missingIndexes([ranged], [])[0].needs.fields).toEqual([
      { fieldPath: 'status', order: 'ASCENDING' },
      { fieldPath: 'geohash', order: 'ASCENDING' },
    ]);
    const member = q([{ field: 'memberIds', op: 'ARRAY_CONTAINS' }], [{ field: 'lastMessageAt', direction: 'DESCENDING' }], 'conversations');
    const needed = missingIndexes([member], [])[0].needs;
    expect(needed.fields).toEqual([
      { fieldPath: 'memberIds', arrayConfig: 'CONTAINS' },
      { fieldPath: 'lastMessageAt', order: 'DESCENDING' },
    ]);
    expect(missingIndexes([member], [needed])).toEqual([]);
  });

  it('reads the shape of a structured query as the client library sends it', () => {
    expect(
      shapeOf({
        from: [{ collectionId: 'app_notifications', allDescendants: false }],
        where: {
          compositeFilter: {
            op: 'AND',
            filters: [
              { fieldFilter: { field: { fieldPath: 'recipientId' }, op: 'EQUAL' } },
              { unaryFilter: { field: { fieldPath: 'readAt' }, op: 'IS_NULL' } },
            ],
          },
        },
        orderBy: [{ field: { fieldPath: 'createdAt' }, direction: 'DESCENDING' }],
      }),
    ).toEqual({
      collection: 'app_notifications',
      collectionGroup: false,
      filters: [
        { field: 'recipientId', op: 'EQUAL' },
        { field: 'readAt', op: 'IS_NULL' },
      ],
      orderBy: [{ field: 'createdAt', direction: 'DESCENDING' }],
    });
  });
});

describe("deploy:check — the functions runtime (firebase-tools' own table)", () => {
  // The table the installed firebase-tools deploys with.
  const { RUNTIMES } = require(
    path.join(__dirname, '..', '..', '..', 'node_modules', 'firebase-tools', 'lib', 'deploy', 'functions', 'runtimes', 'supported', 'types.js'),
  ) as { RUNTIMES: Record<string, RuntimeSupport> };
  const at = (day: string) => new Date(`${day}T00:00:00Z`);

  it('refuses Node.js 20 after its decommission, naming the date', () => {
    expect(runtimeProblems(['nodejs20'], RUNTIMES, at('2026-11-25')).problems).toEqual([
      expect.stringContaining('Runtime Node.js 20 was decommissioned on 2026-10-30'),
    ]);
  });

  it('passes the configured runtime on a pinned day (2026-11-25), without a warning', () => {
    // Pinned, not today: the runtime's own deprecation is deploy:check's to report when it comes, not CI's.
    const firebaseJson = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'firebase.json'), 'utf8')) as {
      functions: Array<{ runtime: string }>;
    };
    const runtimes = firebaseJson.functions.map((f) => f.runtime);
    expect(runtimeProblems(runtimes, RUNTIMES, at('2026-11-25'))).toEqual({ problems: [], warnings: [] });
  });

  it('warns within 90 days of the deprecation date and after it, until the decommission', () => {
    const row = RUNTIMES.nodejs24!;
    const deprecation = new Date(row.deprecationDate).getTime();
    const day = 24 * 60 * 60 * 1000;
    expect(runtimeProblems(['nodejs24'], RUNTIMES, new Date(deprecation - 91 * day)).warnings).toEqual([]);
    expect(runtimeProblems(['nodejs24'], RUNTIMES, new Date(deprecation - 89 * day))).toEqual({
      problems: [],
      warnings: [expect.stringContaining(`is deprecated on ${row.deprecationDate} (within 90 days)`)],
    });
    expect(runtimeProblems(['nodejs24'], RUNTIMES, new Date(deprecation + day)).warnings).toEqual([expect.stringContaining('was deprecated on')]);
  });

  it('names an unknown runtime and a missing one', () => {
    expect(runtimeProblems(['nodejs99'], RUNTIMES, at('2026-11-25')).problems).toEqual([
      expect.stringContaining('runtime nodejs99 is not one firebase-tools knows'),
    ]);
    expect(runtimeProblems([], RUNTIMES, at('2026-11-25')).problems).toEqual(['firebase.json names no functions runtime']);
  });
});

describe('deploy:check — instance ceilings and concurrency', () => {
  // firebase-tools' gen-2 table: up to 2 GiB gets one CPU.
  const gen2Cpu = (mb: number) => (mb <= 2048 ? 1 : 2);

  it('passes functions with a ceiling and a concurrency their CPU allows', () => {
    expect(
      scalingProblems({ api: { maxInstances: 20, concurrency: 80, availableMemoryMb: 512 }, rideTrigger: { maxInstances: 10, concurrency: 16 } }, gen2Cpu, 256),
    ).toEqual([]);
  });

  it('names a function without maxInstances or concurrency, and concurrency on a fractional CPU', () => {
    expect(
      scalingProblems(
        {
          a: { concurrency: 1 },
          b: { maxInstances: 5 },
          c: { maxInstances: 5, concurrency: 8, cpu: 0.5 },
          d: { maxInstances: 5, concurrency: 8, cpu: 'gcf_gen1' },
        },
        gen2Cpu,
        256,
      ),
    ).toEqual([
      "a has no maxInstances (set API_MAX_INSTANCES / FUNCTIONS_MAX_INSTANCES or the function's option)",
      'b has no concurrency set',
      'c runs 8 requests at once on less than one CPU: firebase deploy refuses it',
      'd runs 8 requests at once on less than one CPU: firebase deploy refuses it',
    ]);
  });
});

describe('deploy settings — instance ceilings', () => {
  it('reads API_MAX_INSTANCES and FUNCTIONS_MAX_INSTANCES with defaults, refusing non-numbers', () => {
    expect(instanceLimits({})).toEqual({ api: 20, others: 10 });
    expect(instanceLimits({ API_MAX_INSTANCES: '50', FUNCTIONS_MAX_INSTANCES: '3' })).toEqual({ api: 50, others: 3 });
    expect(() => instanceLimits({ API_MAX_INSTANCES: '0' })).toThrow('API_MAX_INSTANCES "0" must be a whole number from 1 to 9999');
    expect(() => instanceLimits({ FUNCTIONS_MAX_INSTANCES: 'lots' })).toThrow('FUNCTIONS_MAX_INSTANCES');
  });
});
