import { MODULES } from '../../src/modules';
import { renderOpenApiJson } from '../../src/platform/core/openapi/render';

// Every time the REST API answers or takes is an ISO 8601 string declared `format: date-time` (a calendar day:
// `format: date`), so generated clients read it as a date. Found by name: the API names its times `at`, `time`,
// `since`, `…At`, `…Time`, `…UpTo`, `…Until`, `…Since`, and its days `date`, `…Date`, `…On`.
const TIME_NAME = /^(at|time|since|until)$|[a-z](At|Time|UpTo|Until|Since)$/;
const DAY_NAME = /^date$|[a-z](Date|On)$/;

// Fields named like times that are not ISO 8601, each with its reason (matched on the end of its location).
const NOT_ISO: Record<string, string> = {
  'gateway.paidAt': 'the payment gateway’s own time, kept verbatim (VNPay yyyyMMddHHmmss, MoMo epoch ms) because refunds quote it back',
  'query vnp_PayDate': 'VNPay’s own parameter (yyyyMMddHHmmss), as VNPay sends it to the return and IPN addresses',
};

type Schema = {
  type?: unknown;
  format?: string;
  $ref?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};
interface Field {
  where: string;
  name: string;
  schema: Schema;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const doc: any = JSON.parse(renderOpenApiJson(MODULES));

function* fieldsOf(schema: Schema | undefined, where: string): Generator<Field> {
  if (!schema || typeof schema !== 'object') return;
  for (const [name, inner] of Object.entries(schema.properties ?? {})) {
    yield { where: `${where}.${name}`, name, schema: inner };
    yield* fieldsOf(inner, `${where}.${name}`);
  }
  yield* fieldsOf(schema.items, `${where}[]`);
  for (const part of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) yield* fieldsOf(part, where);
}

function* everyField(): Generator<Field> {
  for (const [name, schema] of Object.entries(doc.components.schemas as Record<string, Schema>)) yield* fieldsOf(schema, name);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- OpenAPI operations, walked generically
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
    for (const [method, op] of Object.entries(item)) {
      const where = `${method.toUpperCase()} ${path}`;
      for (const p of op.parameters ?? []) yield { where: `${where} ${p.in} ${p.name}`, name: p.name, schema: p.schema };
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {}))
        yield* fieldsOf((media as { schema?: Schema }).schema, `${where} body ${type}`);
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        for (const [type, media] of Object.entries((response as { content?: object }).content ?? {}))
          yield* fieldsOf((media as { schema?: Schema }).schema, `${where} ${status} ${type}`);
      }
    }
  }
}

function formatOf(schema: Schema): string | undefined {
  if (schema.$ref) return formatOf(doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')]);
  return schema.format ?? [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].map(formatOf).find(Boolean);
}

const exceptionOf = (field: Field) => Object.keys(NOT_ISO).find((tail) => field.where.endsWith(tail));

describe('OpenAPI time fields', () => {
  const timeFields = [...everyField()].filter((f) => TIME_NAME.test(f.name) || DAY_NAME.test(f.name));

  it('finds the time fields of the document (the walk reaches components, parameters, bodies and answers)', () => {
    expect(timeFields.length).toBeGreaterThan(120);
    expect(timeFields.map((f) => f.where)).toEqual(
      expect.arrayContaining(['Ride.createdAt', 'Session.expiresAt', 'ChatMember.readUpTo', 'GET /favorites/{type}/{targetId} 200 application/json.createdAt']),
    );
  });

  it('declares every time format: date-time and every day format: date, but for the listed exceptions', () => {
    const wrong = timeFields
      .filter((f) => !exceptionOf(f))
      .filter((f) => formatOf(f.schema) !== (TIME_NAME.test(f.name) ? 'date-time' : 'date'))
      .map((f) => `${f.where}: ${formatOf(f.schema) ?? 'no format'}`);
    expect(wrong).toEqual([]);
  });

  it('lists only exceptions that still exist, each described in the document', () => {
    for (const tail of Object.keys(NOT_ISO)) expect(timeFields.some((f) => f.where.endsWith(tail))).toBe(true);
    const paidAt = doc.components.schemas.Payment.properties.gateway.properties.paidAt;
    expect(paidAt.format).toBeUndefined();
    expect(paidAt.description).toMatch(/own format/);
  });

  it('documents the day fields as YYYY-MM-DD dates', () => {
    expect(formatOf(doc.components.schemas.DriverRideSummary.properties.days.items.properties.date)).toBe('date');
    expect(formatOf(doc.components.schemas.DriverRatings.properties.items.items.properties.ratedOn)).toBe('date');
  });
});
