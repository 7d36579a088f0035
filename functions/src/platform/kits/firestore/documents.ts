import type { DocumentData, FirestoreDataConverter, Timestamp } from 'firebase-admin/firestore';
import * as z from 'zod/mini';
import { timestampOf } from '../time/time';

// Documents apps read with snapshot listeners: one zod schema per shape, the module's record type derived from it
// (`RecordOf`), published as JSON Schema and TypeScript (platform/core/openapi/firestore.ts). Time fields are Firestore
// Timestamps in the document and epoch ms in the code: `timestamp()` is a codec (input: the stored Timestamp,
// output: ms), and the repos' converters (`documentConverter`, `storedFields`) turn one into the other by the paths
// the schema names. Schemas are written with zod/mini and built on first use (`lazySchema`), in the module's model.

/** A built document schema (an object, or a union of objects). */
export type DocumentSchema = z.ZodMiniType;
/** A schema built on first use; the same instance after. */
export type LazySchema<S extends DocumentSchema = DocumentSchema> = () => S;

export function lazySchema<S extends DocumentSchema>(build: () => S): LazySchema<S> {
  let built: S | undefined;
  return () => (built ??= build());
}

/** The record the code handles: the document's output side (times in epoch ms); the stored side is `z.input`. */
export type RecordOf<L extends LazySchema> = z.output<ReturnType<L>>;

const isTimestamp = (value: unknown): value is Timestamp =>
  value !== null &&
  typeof value === 'object' &&
  typeof (value as { toMillis?: unknown }).toMillis === 'function' &&
  typeof (value as { seconds?: unknown }).seconds === 'number';

const timeFields = new WeakSet<z.core.$ZodType>();
const zeroIsNull = new WeakSet<z.core.$ZodType>();
const TIMESTAMP_TEXT = 'Firestore Timestamp';

/** A schema with a description (the published field text). */
export function describe<S extends z.ZodMiniType>(schema: S, text: string): S {
  return schema.check(z.describe(text)) as S;
}

function timeCodec() {
  const field = z.codec(z.custom<Timestamp>(isTimestamp), z.number(), {
    decode: (t) => t.toMillis(),
    encode: (ms) => timestampOf(ms),
  });
  timeFields.add(field);
  return field;
}

/** A time field: a Firestore Timestamp in the document, epoch ms in the record. */
export function timestamp(text: string) {
  // The description makes a new instance: it is the one the document's shape holds.
  const field = describe(timeCodec(), `${TIMESTAMP_TEXT}: ${text}`);
  timeFields.add(field);
  return field;
}

/** A nullable time field. */
export const nullableTimestamp = (text: string) => describe(z.nullable(timeCodec()), `${TIMESTAMP_TEXT} or null: ${text}`);

/**
 * A marker that starts at "never": 0 in the record (so comparisons need no null check), null in the document.
 */
export function markerTimestamp(text: string) {
  const field = describe(
    z.codec(z.nullable(z.custom<Timestamp>(isTimestamp)), z.number(), {
      decode: (t) => (t === null ? 0 : t.toMillis()),
      encode: (ms) => (ms === 0 ? null : timestampOf(ms)),
    }),
    `${TIMESTAMP_TEXT} or null (never yet): ${text}`,
  );
  timeFields.add(field);
  zeroIsNull.add(field);
  return field;
}

// ---- the time fields of a schema, by path ----

/** A path to a time field: property names, `*` for every element of an array or value of a map. */
type TimePath = { keys: string[]; zeroIsNull: boolean };

const pathsCache = new WeakMap<object, TimePath[]>();

function collectPaths(schema: z.core.$ZodType, prefix: string[], out: TimePath[], seen: Set<z.core.$ZodType>): void {
  if (timeFields.has(schema)) {
    out.push({ keys: prefix, zeroIsNull: zeroIsNull.has(schema) });
    return;
  }
  if (seen.has(schema)) return;
  seen.add(schema);
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  switch (def.type) {
    case 'object':
      for (const [key, value] of Object.entries((def as unknown as { shape: Record<string, z.core.$ZodType> }).shape))
        collectPaths(value, [...prefix, key], out, seen);
      break;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
      collectPaths(def.innerType as z.core.$ZodType, prefix, out, seen);
      break;
    case 'array':
      collectPaths(def.element as z.core.$ZodType, [...prefix, '*'], out, seen);
      break;
    case 'tuple':
      for (const item of def.items as z.core.$ZodType[]) collectPaths(item, [...prefix, '*'], out, seen);
      break;
    case 'record':
      collectPaths(def.valueType as z.core.$ZodType, [...prefix, '*'], out, seen);
      break;
    case 'union':
      for (const option of def.options as z.core.$ZodType[]) collectPaths(option, prefix, out, seen);
      break;
    default:
      break;
  }
  seen.delete(schema);
}

/** Every time field of a document schema (computed once per schema). */
export function timePaths(schema: DocumentSchema): TimePath[] {
  let paths = pathsCache.get(schema);
  if (!paths) {
    paths = [];
    collectPaths(schema, [], paths, new Set());
    const unique = new Map(paths.map((p) => [p.keys.join('.'), p]));
    paths = [...unique.values()];
    pathsCache.set(schema, paths);
  }
  return paths;
}

type Convert = (value: unknown, path: TimePath) => unknown;

function convertAt(value: unknown, keys: readonly string[], path: TimePath, convert: Convert): unknown {
  if (keys.length === 0) return convert(value, path);
  if (value === null || typeof value !== 'object' || isTimestamp(value)) return value;
  const [key, ...rest] = keys;
  if (key === '*') {
    if (Array.isArray(value)) return value.map((item) => convertAt(item, rest, path, convert));
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convertAt(v, rest, path, convert)]));
  }
  if (Array.isArray(value) || !(key in value)) return value;
  // Only plain data is copied: a FieldValue sentinel (arrayUnion, delete…) passes as it is.
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  return { ...value, [key]: convertAt((value as Record<string, unknown>)[key], rest, path, convert) };
}

function convertAll(data: Record<string, unknown>, schema: DocumentSchema, convert: Convert): Record<string, unknown> {
  let out = data;
  for (const path of timePaths(schema)) {
    // Update data may name a nested field by its dotted path (`share.expiresAt`).
    for (let depth = 1; depth <= path.keys.length; depth++) {
      const head = path.keys.slice(0, depth).join('.');
      if (head.includes('*') || !(head in out)) continue;
      out = { ...out, [head]: convertAt(out[head], path.keys.slice(depth), path, convert) };
    }
  }
  return out;
}

const toStoredTime: Convert = (value, path) => {
  if (typeof value !== 'number') return value;
  if (path.zeroIsNull && value === 0) return null;
  return timestampOf(value);
};
const toRecordTime: Convert = (value, path) => {
  if (isTimestamp(value)) return value.toMillis();
  if (value === null && path.zeroIsNull) return 0;
  // Epoch ms written before the move to Timestamps (both forms read: delete after migrate:listened-times has run
  // in every project), or absent.
  return value;
};

/**
 * Record (or update) data → what is stored: every time field the schema names becomes a Timestamp. Fields of an
 * update may be dotted paths; FieldValue sentinels and values already stored as Timestamps pass as they are.
 */
export function storedFields<T extends object>(schema: LazySchema, data: T): DocumentData {
  return convertAll(data as Record<string, unknown>, schema(), toStoredTime);
}

/**
 * Stored data → the record: Timestamps become epoch ms. Documents written before the move (epoch ms) read the same,
 * so readers take both forms while `migrate-listened-times` runs.
 */
export function recordFields<T>(schema: LazySchema, data: DocumentData): T {
  return convertAll(data, schema(), toRecordTime) as T;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
// What a Timestamp holds: 0001-01-01T00:00:00Z up to 9999-12-31T23:59:59.999Z.
const MIN_TIMESTAMP_MS = -62_135_596_800_000;
const MAX_TIMESTAMP_MS = 253_402_300_799_999;

/** An older stored time the migration cannot convert (not finite, out of a Timestamp's range, an impossible date). */
export class UnconvertibleTimeError extends Error {
  constructor(
    readonly field: string,
    readonly value: unknown,
  ) {
    super(`${field}: ${typeof value === 'string' ? JSON.stringify(value) : String(value)} is not a time a Firestore Timestamp can hold`);
  }
}

/** A trigger's side of a change (`DocumentEvent` before or after) as its record with the document id; undefined when absent. */
export function recordOf<L extends LazySchema>(side: { id: string; data: DocumentData } | undefined, schema: L): (RecordOf<L> & { id: string }) | undefined {
  return side ? ({ ...recordFields<Record<string, unknown>>(schema, side.data), id: side.id } as RecordOf<L> & { id: string }) : undefined;
}

/**
 * The top-level fields of stored data whose times are still in an older form (epoch ms; ISO strings in realtime
 * event data), converted to Timestamps: what `migrate-listened-times` writes. Empty when the document is done.
 * Throws UnconvertibleTimeError (naming the field) for a number or ISO-looking string no Timestamp can hold.
 */
export function pendingTimeFields(schema: LazySchema, data: DocumentData): DocumentData {
  const touched = new Set<string>();
  const converted = convertAll(data, schema(), (value, path) => {
    let ms: number;
    if (typeof value === 'number') {
      if (path.zeroIsNull && value === 0) ms = 0;
      else ms = value;
    } else if (typeof value === 'string' && ISO_TIME.test(value)) ms = Date.parse(value);
    else return value;
    if (!(Number.isFinite(ms) && ms >= MIN_TIMESTAMP_MS && ms <= MAX_TIMESTAMP_MS)) throw new UnconvertibleTimeError(path.keys.join('.'), value);
    touched.add(path.keys[0]);
    return typeof value === 'number' ? toStoredTime(value, path) : timestampOf(ms);
  });
  return Object.fromEntries([...touched].map((key) => [key, converted[key]]));
}

/**
 * The converter of a listened collection's repo: times converted both ways; with `id: true` the document id is
 * the record's `id` (never stored as a field).
 */
export function documentConverter<T extends object>(schema: LazySchema, options: { id: boolean }): FirestoreDataConverter<T> {
  return {
    toFirestore(record) {
      const data = { ...(record as Record<string, unknown>) };
      if (options.id) delete data.id;
      return storedFields(schema, data);
    },
    fromFirestore(snap) {
      const data = recordFields<T>(schema, snap.data());
      return (options.id ? { ...data, id: snap.id } : data) as T;
    },
  };
}

/**
 * A time in each stored form, in Firestore's order (numbers sort before Timestamps): numbers and Timestamps never
 * meet in one range filter (a filter matches values of its own type), so a query over documents not yet migrated
 * runs once per form. Both-forms readers: delete after migrate:listened-times has run in every project.
 */
export const STORED_TIME_FORMS: readonly [(ms: number) => number, (ms: number) => Timestamp] = [(ms) => ms, timestampOf];

/** A bound on a time field in both stored forms (`STORED_TIME_FORMS`, in that order). */
export function bothForms(ms: number): [number, Timestamp] {
  return [STORED_TIME_FORMS[0](ms), STORED_TIME_FORMS[1](ms)];
}

// ---- what is published ----

/** A document apps read with listeners: its schema and where and by whom it is read. */
export interface ListenedDocument {
  /** The published name (JSON Schema `$defs` key and TypeScript interface), e.g. `RideDocument`. */
  name: string;
  /** Path pattern, e.g. `rides/{rideId}`. */
  path: string;
  /** Who may read it, as firestore.rules say (one line). */
  readers: string;
  /** Who writes it. Absent: only the API. */
  writers?: string;
  /** Why `migrate-listened-times` leaves these documents as they are (absent: it converts their older times). */
  unmigrated?: string;
  schema: LazySchema;
}
