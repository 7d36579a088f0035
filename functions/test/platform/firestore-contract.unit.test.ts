import fs from 'node:fs';
import path from 'node:path';
import { FieldValue, Timestamp } from 'firebase-admin/firestore';
import { COLLECTIONS, LISTENED_DOCUMENTS } from '../../src/modules';
import { rideDocument, type RideRecord } from '../../src/modules/rides/rides.model';
import { membershipDocument, newMembership } from '../../src/modules/chat/conversations.model';
import { paymentDocument } from '../../src/modules/payments/payments.model';
import { realtimeDocument } from '../../src/modules/notifications/notifications.model';
import { pendingTimeFields, recordFields, recordOf, storedFields, timePaths, UnconvertibleTimeError } from '../../src/platform/kits/firestore/documents';
import { buildApp } from '../../src/app';
import { createRateLimiter, memoryRateLimitStore } from '../../src/platform/core/ratelimit/rate-limit';
import { memoryIdempotencyStore } from '../../src/platform/kits/idempotency/idempotency';
import { contractProblems } from '../helpers/contract';
import { testConfig } from '../helpers/config';
import { listen } from '../helpers/http';
import {
  documentJsonSchema,
  FIRESTORE_SCHEMA_FILE,
  FIRESTORE_TYPES_FILE,
  renderFirestoreSchema,
  renderFirestoreTypes,
} from '../../src/platform/core/openapi/firestore';

// The Firestore half of the contract: the published files are what the code generates, every collection clients
// may read is described, the rules only use fields the schemas declare, and every time is a Timestamp.
const root = path.join(__dirname, '..', '..', '..');
const published = (file: string) => fs.readFileSync(path.join(root, 'openapi', file), 'utf8');
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// `match` blocks of firestore.rules by their path (below /databases/{database}/documents), with their read condition.
function ruleBlocks(): Map<string, string> {
  const text = fs.readFileSync(path.join(root, 'firestore.rules'), 'utf8');
  const blocks = new Map<string, string>();
  const stack: Array<{ path: string; depth: number }> = [];
  let depth = 0;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const match = /^\s*match (\S+) \{/.exec(line);
    if (match) {
      const parent = stack.at(-1)?.path ?? '';
      stack.push({ path: `${parent}${match[1]}`, depth });
    }
    if (/^\s*allow [^:]*\bread\b[^:]*:/.test(line)) {
      let condition = line;
      for (let j = i + 1; !condition.trimEnd().endsWith(';'); j++) condition += ` ${lines[j].trim()}`;
      blocks.set(stack.at(-1)!.path.replace('/databases/{database}/documents/', ''), condition);
    }
    depth += (line.match(/\{/g) ?? []).length - (line.match(/\}/g) ?? []).length;
    while (stack.length > 0 && depth <= stack.at(-1)!.depth) stack.pop();
  }
  return blocks;
}

const samePattern = (rule: string, document: string) => {
  const [a, b] = [rule.split('/'), document.split('/')];
  return a.length === b.length && a.every((s, i) => s === b[i] || (s.startsWith('{') && (b[i].startsWith('{') || !b[i].includes('{'))));
};

/** Every property of a JSON Schema (through unions), with its path. */
function properties(schema: Json, prefix = ''): Array<{ path: string; schema: Json }> {
  const out: Array<{ path: string; schema: Json }> = [];
  for (const option of schema.oneOf ?? schema.anyOf ?? []) out.push(...properties(option, prefix));
  if (schema.items && typeof schema.items === 'object') out.push(...properties(schema.items, `${prefix}[]`));
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') out.push(...properties(schema.additionalProperties, `${prefix}{}`));
  for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Json>)) {
    out.push({ path: `${prefix}${prefix ? '.' : ''}${name}`, schema: property }, ...properties(property, `${prefix}${prefix ? '.' : ''}${name}`));
  }
  return out;
}
const isTimestamp = (schema: Json): boolean => schema.$ref === '#/$defs/Timestamp' || (schema.anyOf ?? []).some(isTimestamp);

describe('Firestore contract (listened documents)', () => {
  it('the published JSON Schema and TypeScript declarations are what the code generates (npm run openapi writes them)', () => {
    expect(published(FIRESTORE_SCHEMA_FILE)).toBe(renderFirestoreSchema(LISTENED_DOCUMENTS));
    expect(published(FIRESTORE_TYPES_FILE)).toBe(renderFirestoreTypes(LISTENED_DOCUMENTS));
  });

  it('the API serves the same files under /docs (behind SWAGGER_ENABLED, as the OpenAPI document)', async () => {
    const serve = (swagger: string) =>
      listen(
        buildApp({
          config: testConfig({ SWAGGER_ENABLED: swagger }),
          modules: [],
          rateLimiter: createRateLimiter(memoryRateLimitStore()),
          idempotency: memoryIdempotencyStore(),
        }).app,
      );
    const [on, off] = [await serve('true'), await serve('false')];
    try {
      for (const file of [FIRESTORE_SCHEMA_FILE, FIRESTORE_TYPES_FILE]) {
        const res = await fetch(`${on.url}/docs/${file}`);
        expect([file, res.status, await res.text()]).toEqual([file, 200, published(file)]);
        expect((await fetch(`${off.url}/docs/${file}`)).status).toBe(404);
      }
      expect((await fetch(`${on.url}/docs/${FIRESTORE_SCHEMA_FILE}`)).headers.get('content-type')).toContain('application/schema+json');
    } finally {
      await Promise.all([on.close(), off.close()]);
    }
  });

  it('renders each file once per app, whatever spelling of its path Express matched (no cache entry per spelling)', async () => {
    const contract = require('../../src/platform/core/openapi/firestore') as typeof import('../../src/platform/core/openapi/firestore');
    const renders = [jest.spyOn(contract, 'renderFirestoreSchema'), jest.spyOn(contract, 'renderFirestoreTypes')];
    const on = await listen(
      buildApp({
        config: testConfig({ SWAGGER_ENABLED: 'true' }),
        modules: [],
        rateLimiter: createRateLimiter(memoryRateLimitStore()),
        idempotency: memoryIdempotencyStore(),
      }).app,
    );
    try {
      const spellings = [
        FIRESTORE_SCHEMA_FILE,
        FIRESTORE_SCHEMA_FILE.toUpperCase(),
        `${FIRESTORE_SCHEMA_FILE}/`,
        'Firestore.Schema.Json/',
        FIRESTORE_TYPES_FILE,
        FIRESTORE_TYPES_FILE.toUpperCase(),
        `${FIRESTORE_TYPES_FILE}/`,
      ];
      for (const spelling of spellings) {
        const res = await fetch(`${on.url}/docs/${spelling}`);
        const file = spelling.toLowerCase().startsWith('firestore.schema') ? FIRESTORE_SCHEMA_FILE : FIRESTORE_TYPES_FILE;
        expect([spelling, res.status, await res.text()]).toEqual([spelling, 200, published(file)]);
      }
      expect(renders.map((render) => render.mock.calls.length)).toEqual([1, 1]);
    } finally {
      for (const render of renders) render.mockRestore();
      await on.close();
    }
  });

  it('describes every collection clients may read, once, under the path firestore.rules match', () => {
    const readable = COLLECTIONS.filter((c) => c.clientAccess);
    expect(readable.filter((c) => !c.listened).map((c) => c.name)).toEqual([]);
    expect(new Set(LISTENED_DOCUMENTS.map((d) => d.name)).size).toBe(LISTENED_DOCUMENTS.length);
    const rules = ruleBlocks();
    for (const document of LISTENED_DOCUMENTS) {
      const rule = [...rules.keys()].filter((r) => samePattern(r, document.path));
      expect([document.path, rule.length]).toEqual([document.path, 1]);
    }
  });

  it("the rules' read conditions use fields the schemas declare and the readers line names", () => {
    const rules = ruleBlocks();
    const byPath = new Map(LISTENED_DOCUMENTS.map((d) => [d.path, d]));
    for (const document of LISTENED_DOCUMENTS) {
      const condition = rules.get([...rules.keys()].find((r) => samePattern(r, document.path))!)!;
      const own = [...condition.matchAll(/resource\.data\.(\w+)/g)].map((m) => m[1]);
      const schema = documentJsonSchema(document) as Json;
      const declared = Object.keys(schema.properties ?? schema.oneOf[0].properties);
      for (const field of own)
        expect([document.name, field, declared.includes(field), document.readers.includes(`\`${field}\``)]).toEqual([document.name, field, true, true]);
      // A parent's field (messages: the conversation's memberIds).
      for (const [, parentPath, field] of condition.matchAll(/get\(\/databases\/\$\(database\)\/documents\/(\w+)\/\$\(\w+\)\)\.data\.(\w+)/g)) {
        const parent = [...byPath.values()].find((d) => d.path.split('/')[0] === parentPath && d.path.split('/').length === 2)!;
        expect([
          document.name,
          field,
          Object.keys((documentJsonSchema(parent) as Json).properties).includes(field),
          document.readers.includes(`\`${field}\``),
        ]).toEqual([document.name, field, true, true]);
      }
      if (/request\.auth\.uid == (?!resource)\w+Id\b/.test(condition))
        expect([document.name, document.readers]).toEqual([document.name, expect.stringContaining('document id')]);
      // Open to everyone (`if true`): the readers line says so; otherwise signed-in clients at least.
      if (/:\s*if true;\s*$/.test(condition)) expect(document.readers).toContain('anyone');
      else if (!condition.includes('liveSession()')) expect(document.readers).toContain('signed-in');
    }
  });

  it("every time is a Firestore Timestamp, described as one (the gateway's own pay time aside)", () => {
    const exceptions = new Set(['PaymentDocument.gateway.paidAt']);
    let times = 0;
    for (const document of LISTENED_DOCUMENTS) {
      for (const { path: field, schema } of properties(documentJsonSchema(document))) {
        const key = `${document.name}.${field}`;
        const timeLike = /(At|^at|\.at)$/.test(field);
        if (isTimestamp(schema)) {
          times += 1;
          expect([key, schema.description]).toEqual([key, expect.stringMatching(/^Firestore Timestamp/)]);
        } else if (timeLike && !exceptions.has(key)) throw new Error(`${key} looks like a time but is not a Timestamp`);
        if (!isTimestamp(schema)) expect([key, schema.type === 'number' && timeLike]).toEqual([key, false]);
      }
    }
    expect(times).toBeGreaterThan(40);
  });

  it('documents whose fields are all described (objects of one-off shapes aside)', () => {
    for (const name of [
      'RideDocument',
      'CallDocument',
      'MessageDocument',
      'ChatMembershipDocument',
      'InboxItemDocument',
      'PaymentDocument',
      'DriverLocationDocument',
    ]) {
      const document = LISTENED_DOCUMENTS.find((d) => d.name === name)!;
      const schema = documentJsonSchema(document);
      const undescribed = Object.entries(schema.properties as Record<string, Json>)
        .filter(
          ([key, p]) => !p.description && !['conversationId', 'currency', 'description', 'failureReason', 'creditShard', 'creditBalanceAfter'].includes(key),
        )
        .map(([key]) => key);
      expect([name, undescribed]).toEqual([name, []]);
      expect(schema['x-firestore']).toEqual({ path: document.path, readers: document.readers, writers: expect.any(String) });
    }
  });
});

describe('time fields between records (epoch ms) and documents (Timestamps)', () => {
  const at = Date.UTC(2026, 10, 25, 8, 30);
  const ride = (): RideRecord => ({
    id: 'r1',
    riderId: 'u1',
    driverId: null,
    participants: ['u1'],
    status: 'CONFIRMED',
    rideClass: 'CAR',
    pickup: { lat: 10.7, lng: 106.7 },
    dropoff: { lat: 10.8, lng: 106.6, address: 'Q1' },
    pickupCell: 'w3gv',
    quote: { fare: 50_000, distanceM: 4000, durationSec: 600, surgeBp: 10_000 },
    paymentMethod: 'CASH',
    holdPaymentId: null,
    paymentId: null,
    fare: null,
    drivenM: null,
    cancellationFee: 0,
    driver: null,
    etaToPickupSec: null,
    excludedDriverIds: [],
    reassignments: 0,
    note: null,
    cancelledBy: null,
    cancelReason: null,
    rating: null,
    share: { tokenHash: 'h', expiresAt: at + 3_600_000 },
    createdAt: at,
    confirmedAt: at + 1000,
    arrivedAt: null,
    pickedUpAt: null,
    completedAt: null,
    endedAt: null,
    updatedAt: at + 1000,
  });

  it('finds every time field of a schema, nested and in arrays', () => {
    expect(
      timePaths(rideDocument())
        .map((p) => p.keys.join('.'))
        .sort(),
    ).toEqual(['arrivedAt', 'completedAt', 'confirmedAt', 'createdAt', 'endedAt', 'pickedUpAt', 'share.expiresAt', 'updatedAt']);
    expect(timePaths(paymentDocument()).map((p) => p.keys.join('.'))).toEqual(expect.arrayContaining(['refunds.*.at', 'refunds.*.requestedAt', 'createdAt']));
    expect(
      timePaths(realtimeDocument())
        .map((p) => p.keys.join('.'))
        .sort(),
    ).toEqual(['createdAt', 'data.at', 'data.ringExpiresAt', 'expireAt']);
  });

  it('stores a record with Timestamps and reads it back as the same record; nulls stay null', () => {
    const { id: _id, ...record } = ride();
    const stored = storedFields(rideDocument, record);
    expect(stored.createdAt).toEqual(Timestamp.fromMillis(at));
    expect(stored.share.expiresAt).toEqual(Timestamp.fromMillis(at + 3_600_000));
    expect([stored.arrivedAt, stored.quote, stored.pickup]).toEqual([null, record.quote, record.pickup]);
    expect(record.createdAt).toBe(at); // the record itself is not changed
    expect(recordFields(rideDocument, stored)).toEqual(record);
    // A trigger's sides: the record with its document id, or undefined (created, deleted).
    expect([recordOf({ id: ride().id, data: stored }, rideDocument), recordOf(undefined, rideDocument)]).toEqual([ride(), undefined]);
  });

  it('converts update data: dotted paths, arrays of entries, FieldValue sentinels untouched', () => {
    const remove = FieldValue.arrayRemove('x');
    expect(storedFields(rideDocument, { updatedAt: at, 'share.expiresAt': at, excludedDriverIds: remove })).toEqual({
      updatedAt: Timestamp.fromMillis(at),
      'share.expiresAt': Timestamp.fromMillis(at),
      excludedDriverIds: remove,
    });
    const refunds = [{ id: 'f1', amount: 1000, reason: 'r', by: 'u1', at, gateway: { state: 'SETTLED', reference: null }, requestedAt: null }];
    expect(storedFields(paymentDocument, { refunds }).refunds).toEqual([{ ...refunds[0], at: Timestamp.fromMillis(at) }]);
  });

  it('reads documents not yet migrated (epoch ms) as they are, so readers take both forms', () => {
    const { id: _id, ...record } = ride();
    expect(recordFields(rideDocument, record)).toEqual(record);
    const mixed = { ...storedFields(rideDocument, record), createdAt: at };
    expect(recordFields(rideDocument, mixed)).toEqual(record);
  });

  it('a marker that starts at "never" is 0 in the record and null in the document', () => {
    const member = newMembership('c1', 'u1', 'MEMBER', at);
    const stored = storedFields(membershipDocument, member);
    expect([stored.readUpToAt, stored.deliveredUpToAt, stored.joinedAt]).toEqual([null, null, Timestamp.fromMillis(at)]);
    expect(recordFields(membershipDocument, stored)).toEqual(member);
  });

  it('a stored record parses with the published schema; an epoch-ms time or an undeclared field does not', () => {
    const { id: _id, ...record } = ride();
    const stored = storedFields(rideDocument, record);
    expect(contractProblems('RideDocument', stored)).toEqual([]);
    expect(contractProblems('RideDocument', { ...stored, createdAt: at })).toEqual([expect.stringMatching(/^RideDocument\.createdAt: number/)]);
    expect(contractProblems('RideDocument', { ...stored, secret: 1 })).toEqual(['RideDocument.secret: not in the published schema']);
    expect(contractProblems('RideDocument', { ...stored, status: 'LOST' })).toEqual([expect.stringMatching(/status: "LOST" is not one of/)]);
    const member = storedFields(membershipDocument, newMembership('c1', 'u1', 'MEMBER', at));
    expect(contractProblems('ChatMembershipDocument', member)).toEqual([]);
    expect(contractProblems('ChatMembershipDocument', { ...member, readUpToAt: 0 })).toEqual([expect.stringMatching(/readUpToAt: matches 0 of the 2 options/)]);
  });

  it('the migration converts only what is still epoch ms (or an ISO string in realtime data), top-level field by field', () => {
    const { id: _id, ...record } = ride();
    expect(Object.keys(pendingTimeFields(rideDocument, record)).sort()).toEqual(['confirmedAt', 'createdAt', 'share', 'updatedAt']);
    expect(pendingTimeFields(rideDocument, storedFields(rideDocument, record))).toEqual({});
    const event = {
      recipientId: 'u1',
      type: 'ride:location',
      payload: {},
      data: { rideId: 'r1', at: '2026-11-25T08:30:00.000Z' },
      createdAt: Timestamp.fromMillis(at),
      expireAt: Timestamp.fromMillis(at),
    };
    expect(pendingTimeFields(realtimeDocument, event)).toEqual({ data: { rideId: 'r1', at: Timestamp.fromMillis(at) } });
    const member = storedFields(membershipDocument, { ...newMembership('c1', 'u1', 'MEMBER', at), readUpToAt: 0 });
    expect(pendingTimeFields(membershipDocument, { ...member, readUpToAt: 0 })).toEqual({ readUpToAt: null });
  });

  it('the migration refuses, naming the field, a time no Timestamp can hold (not finite, out of range, an impossible ISO date)', () => {
    const { id: _id, ...record } = ride();
    for (const [field, value] of [
      ['createdAt', Number.NaN],
      ['createdAt', Number.POSITIVE_INFINITY],
      ['updatedAt', 1e20],
      ['updatedAt', -1e17],
    ] as const) {
      expect(() => pendingTimeFields(rideDocument, { ...record, [field]: value })).toThrow(new UnconvertibleTimeError(field, value));
    }
    expect(() => pendingTimeFields(rideDocument, { ...record, share: { tokenHash: 'h', expiresAt: Number.NaN } })).toThrow(/^share\.expiresAt: NaN /);
    const event = (at: unknown) => ({
      recipientId: 'u1',
      type: 'ride:location',
      payload: {},
      data: { rideId: 'r1', at },
      createdAt: Timestamp.fromMillis(0),
      expireAt: Timestamp.fromMillis(0),
    });
    expect(() => pendingTimeFields(realtimeDocument, event('2026-13-45T99:99:00Z'))).toThrow(UnconvertibleTimeError);
    expect(() => pendingTimeFields(realtimeDocument, event('+275760-09-13T00:00:00.001Z'))).not.toThrow(); // not ISO-looking: left as it is
    expect(pendingTimeFields(realtimeDocument, event('not a time'))).toEqual({});
    // The edges of a Timestamp's range convert.
    expect(pendingTimeFields(realtimeDocument, event('9999-12-31T23:59:59.999Z'))).toEqual({
      data: { rideId: 'r1', at: Timestamp.fromMillis(253_402_300_799_999) },
    });
    expect(pendingTimeFields(rideDocument, { ...storedFields(rideDocument, record), createdAt: -62_135_596_800_000 })).toEqual({
      createdAt: Timestamp.fromMillis(-62_135_596_800_000),
    });
  });
});
