import fs from 'node:fs';
import path from 'node:path';
import { Timestamp, type DocumentData } from 'firebase-admin/firestore';
import { db } from '../../src/platform/core/firebase/firebase';

// Real documents against the published Firestore contract (openapi/firestore.schema.json, the file app teams get):
// a JSON Schema check of the subset the generator writes, with objects closed (a field the schema does not name is
// a finding too: the contract must say everything a listener receives). Timestamps are checked in their JSON form.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const bundle = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'openapi', 'firestore.schema.json'), 'utf8')) as Json;

/** A document as JSON: Timestamps as {seconds, nanoseconds}, the way the schema describes them. */
function jsonForm(value: unknown): unknown {
  if (value instanceof Timestamp) return { seconds: value.seconds, nanoseconds: value.nanoseconds };
  if (Array.isArray(value)) return value.map(jsonForm);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonForm(v)]));
  return value;
}

const typeOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

function check(schema: Json, value: unknown, at: string, problems: string[]): void {
  if (typeof schema.$ref === 'string') return check(bundle.$defs[schema.$ref.replace('#/$defs/', '')], value, at, problems);
  if (schema.anyOf || schema.oneOf) {
    const options = (schema.anyOf ?? schema.oneOf) as Json[];
    const passing = options.filter((option) => {
      const found: string[] = [];
      check(option, value, at, found);
      return found.length === 0;
    });
    if (passing.length === 0 || (schema.oneOf && passing.length > 1))
      problems.push(`${at}: matches ${passing.length} of the ${options.length} options (${JSON.stringify(value)?.slice(0, 120)})`);
    return;
  }
  if ('const' in schema && value !== schema.const) problems.push(`${at}: ${JSON.stringify(value)} is not ${JSON.stringify(schema.const)}`);
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) problems.push(`${at}: ${JSON.stringify(value)} is not one of ${schema.enum.join(', ')}`);
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    const actual = typeOf(value);
    const fits = types.some((t) => t === actual || (t === 'integer' && Number.isInteger(value)));
    if (!fits) return void problems.push(`${at}: ${actual} (${JSON.stringify(value)?.slice(0, 60)}) where ${types.join(' or ')} is expected`);
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) problems.push(`${at}: below ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) problems.push(`${at}: above ${schema.maximum}`);
  }
  if (Array.isArray(value)) {
    const prefix = (schema.prefixItems ?? []) as Json[];
    value.forEach((item, i) => {
      const itemSchema = (prefix[i] ?? schema.items) as Json | boolean | undefined;
      if (itemSchema === false) problems.push(`${at}[${i}]: more items than the schema allows`);
      else if (itemSchema) check(itemSchema as Json, item, `${at}[${i}]`, problems);
    });
    if (schema.minItems !== undefined && value.length < schema.minItems) problems.push(`${at}: fewer than ${schema.minItems} items`);
  } else if (value !== null && typeof value === 'object' && schema.type === 'object') {
    const declared = (schema.properties ?? {}) as Record<string, Json>;
    for (const key of (schema.required ?? []) as string[]) if (!(key in value)) problems.push(`${at}.${key}: missing`);
    for (const [key, item] of Object.entries(value)) {
      if (declared[key]) check(declared[key], item, `${at}.${key}`, problems);
      else if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
        const names = schema.propertyNames as Json | undefined;
        if (names?.enum && !names.enum.includes(key)) problems.push(`${at}.${key}: not an allowed key`);
        check(schema.additionalProperties, item, `${at}.${key}`, problems);
      } else problems.push(`${at}.${key}: not in the published schema`);
    }
  }
}

/** What is wrong with `data` as the published document `name` (empty: it parses). */
export function contractProblems(name: string, data: DocumentData): string[] {
  const schema = bundle.$defs[name] as Json | undefined;
  if (!schema) return [`${name} is not a published document`];
  const problems: string[] = [];
  check(schema, jsonForm(data), name, problems);
  return problems;
}

/** Reads the stored document and expects it to parse with its published schema; returns its data. */
export async function expectPublished(name: string, documentPath: string): Promise<DocumentData> {
  const snap = await db().doc(documentPath).get();
  if (!snap.exists) throw new Error(`${documentPath} does not exist`);
  expect({ [documentPath]: contractProblems(name, snap.data()!) }).toEqual({ [documentPath]: [] });
  return snap.data()!;
}

/** The stored documents of a query, each expected to parse as `name`; at least one. */
export async function expectAllPublished(name: string, query: FirebaseFirestore.Query): Promise<DocumentData[]> {
  const snap = await query.get();
  expect(snap.size).toBeGreaterThan(0);
  for (const doc of snap.docs) expect({ [doc.ref.path]: contractProblems(name, doc.data()) }).toEqual({ [doc.ref.path]: [] });
  return snap.docs.map((d) => d.data());
}
