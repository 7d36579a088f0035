import { z } from 'zod';

// How the API's schemas declare the times `iso`/`isoOrNull` (platform/kits/time) produce: OpenAPI `format: date-time`,
// so generated clients parse them as dates. Response fields only declare it (the value comes from `iso`, so it is
// not checked again on every answer); a request field that takes a time validates with z.iso.datetime(), which
// documents the same format.

/** An ISO 8601 time in UTC, e.g. `2026-11-25T08:30:00.000Z`. */
export const IsoTimeSchema = z.string().meta({ format: 'date-time' });

/** A calendar day, `YYYY-MM-DD` (e.g. a day in Vietnam time). */
export const IsoDateSchema = z.string().meta({ format: 'date' });
