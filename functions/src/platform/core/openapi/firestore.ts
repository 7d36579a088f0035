import * as z from 'zod/mini';
import type { ListenedDocument } from '../../kits/firestore/documents';

// The Firestore half of the contract, published beside openapi.json: the documents apps read with snapshot
// listeners, as one JSON Schema bundle (openapi/firestore.schema.json) and TypeScript declarations
// (openapi/firestore-documents.d.ts), both generated from the zod schemas the repos convert with.

export const FIRESTORE_SCHEMA_FILE = 'firestore.schema.json';
export const FIRESTORE_TYPES_FILE = 'firestore-documents.d.ts';

type Json = Record<string, unknown>;

const TIMESTAMP: Json = {
  type: 'object',
  description:
    'Firestore Timestamp: the client SDKs hand it as their Timestamp type (seconds and nanoseconds since the Unix epoch, UTC; toDate(), toMillis()). It orders and compares with request.time in rules; queries order on it.',
  properties: {
    seconds: { type: 'integer', description: 'Seconds since 1970-01-01T00:00:00Z.' },
    nanoseconds: { type: 'integer', minimum: 0, maximum: 999_999_999, description: 'Fraction of the second, in nanoseconds.' },
  },
  required: ['seconds', 'nanoseconds'],
  'x-firestore-type': 'timestamp',
};

const CONTRACT_TEXT =
  'Documents apps read with Firestore snapshot listeners, after signing in with the custom token of POST /auth/firebase-token (admitted by firestore.rules while that API session lives). Each definition names its path pattern and who may read it (`x-firestore`). Every time is a Firestore Timestamp (`#/$defs/Timestamp`); the REST API answers the same times as ISO 8601 strings. Documents may gain fields: ignore the ones you do not know.';

/** One document's JSON Schema (the stored side: times as Timestamps), its `$ref`s pointing into the bundle. */
export function documentJsonSchema(document: ListenedDocument): Json {
  const schema = z.toJSONSchema(document.schema(), {
    io: 'input',
    unrepresentable: 'any',
    override: (ctx) => {
      if (ctx.zodSchema._zod.def.type !== 'custom') return;
      for (const key of Object.keys(ctx.jsonSchema)) delete (ctx.jsonSchema as Json)[key];
      (ctx.jsonSchema as Json).$ref = '#/$defs/Timestamp';
    },
  }) as Json;
  delete schema.$schema;
  return { ...schema, 'x-firestore': { path: document.path, readers: document.readers, writers: document.writers ?? 'the API only (clients cannot write)' } };
}

export function renderFirestoreSchema(documents: readonly ListenedDocument[]): string {
  const defs: Json = { Timestamp: TIMESTAMP };
  for (const document of documents) {
    if (defs[document.name]) throw new Error(`listened document ${document.name} is declared twice`);
    defs[document.name] = documentJsonSchema(document);
  }
  const bundle = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: FIRESTORE_SCHEMA_FILE,
    title: 'Firestore documents apps listen to',
    description: CONTRACT_TEXT,
    $defs: defs,
  };
  return `${JSON.stringify(bundle, null, 2)}\n`;
}

// ---- TypeScript declarations, from the same JSON Schema ----

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const keyOf = (name: string) => (IDENTIFIER.test(name) ? name : JSON.stringify(name));
const literal = (value: unknown) => JSON.stringify(value);

function docComment(text: string | undefined, indent: string): string {
  if (!text) return '';
  const lines = text.split('\n');
  return lines.length === 1
    ? `${indent}/** ${text.replace(/\*\//g, '*\\/')} */\n`
    : `${indent}/**\n${lines.map((l) => `${indent} * ${l.replace(/\*\//g, '*\\/')}`).join('\n')}\n${indent} */\n`;
}

// Objects with a JSON Schema `title` (a shared shape: the notification payload, realtime event data) become named
// declarations of their own; everything else is written inline.
type Named = Map<string, string>;

function tsOf(schema: Json, indent: string, named: Named): string {
  if (typeof schema.$ref === 'string') return schema.$ref.replace('#/$defs/', '');
  const options = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (options) return options.map((o) => tsOf(o, indent, named)).join(' | ');
  if ('const' in schema) return literal(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map(literal).join(' | ');
  if (Array.isArray(schema.type)) return (schema.type as string[]).map((type) => tsOf({ ...schema, type }, indent, named)).join(' | ');
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      if (Array.isArray(schema.prefixItems)) return `[${(schema.prefixItems as Json[]).map((i) => tsOf(i, indent, named)).join(', ')}]`;
      const item = tsOf((schema.items as Json | undefined) ?? {}, indent, named);
      return /[|&]/.test(item) ? `Array<${item}>` : `${item}[]`;
    }
    case 'object': {
      if (typeof schema.title !== 'string') return objectOf(schema, indent, named);
      const declaration = `export interface ${schema.title} ${objectOf(schema, '', named)}\n`;
      if (named.has(schema.title) && named.get(schema.title) !== declaration) throw new Error(`two different shapes are titled ${schema.title}`);
      named.set(schema.title, declaration);
      return schema.title;
    }
    default:
      return 'unknown';
  }
}

function objectOf(schema: Json, indent: string, named: Named): string {
  const properties = (schema.properties as Record<string, Json> | undefined) ?? {};
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const inner = `${indent}  `;
  const lines = Object.entries(properties).map(
    ([name, property]) =>
      `${docComment(property.description as string | undefined, inner)}${inner}${keyOf(name)}${required.has(name) ? '' : '?'}: ${tsOf(property, inner, named)};`,
  );
  const extra = schema.additionalProperties as Json | boolean | undefined;
  if (extra && typeof extra === 'object') {
    const value = tsOf(extra, inner, named);
    const keys = (schema.propertyNames as Json | undefined)?.enum as unknown[] | undefined;
    if (keys && lines.length === 0) return `{ [key in ${keys.map(literal).join(' | ')}]: ${value} }`;
    lines.push(`${inner}[key: string]: ${value};`);
  }
  return lines.length === 0 ? 'Record<string, never>' : `{\n${lines.join('\n')}\n${indent}}`;
}

export function renderFirestoreTypes(documents: readonly ListenedDocument[]): string {
  const out: string[] = [
    '// Generated by scripts/openapi.cjs (npm run openapi) from the zod schemas of functions/src: do not edit.',
    `// The documents apps read with Firestore snapshot listeners; the same definitions as ${FIRESTORE_SCHEMA_FILE}.`,
    '',
    `${docComment(`${TIMESTAMP.description as string}\nStructurally the client SDKs' Timestamp (e.g. \`Timestamp\` of firebase/firestore).`, '')}export interface Timestamp {\n  readonly seconds: number;\n  readonly nanoseconds: number;\n  toDate(): Date;\n  toMillis(): number;\n}\n`,
  ];
  const named: Named = new Map();
  const declarations = documents.map((document) => {
    const schema = documentJsonSchema(document);
    const where = `Path: \`${document.path}\`. Read by ${document.readers}. Written by ${document.writers ?? 'the API only'}.`;
    const branches = (schema.oneOf ?? schema.anyOf) as Json[] | undefined;
    const declaration = branches
      ? `export type ${document.name} =\n${branches.map((branch) => `  | ${tsOf(branch, '  ', named)}`).join('\n')};\n`
      : `export interface ${document.name} ${tsOf({ ...schema, description: undefined }, '', named)}\n`;
    return `${docComment(`${schema.description as string}\n${where}`, '')}${declaration}`;
  });
  out.push(...declarations);
  // Shared shapes after the documents that use them, each once.
  for (const declaration of named.values()) out.push(declaration);
  out.push(
    `${docComment('Each document by its path pattern.', '')}export interface FirestoreDocuments {\n${documents.map((d) => `  ${literal(d.path)}: ${d.name};`).join('\n')}\n}\n`,
  );
  return out.join('\n');
}
