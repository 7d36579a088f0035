import { STATUS_CODES } from 'node:http';
import { z } from 'zod';
import { ERROR_CODES, generalCode, type ErrorCode } from './codes';

// The one error body of the API. `error` is the HTTP status name.
export interface ErrorBody {
  statusCode: number;
  error: string;
  code: ErrorCode;
  message: string;
  details?: unknown;
  requestId: string;
}

// Built on first use (the OpenAPI document): the codes of the modules join ERROR_CODES when the module list is installed.
let schema: z.ZodType<ErrorBody> | undefined;
export function errorBodySchema(): z.ZodType<ErrorBody> {
  schema ??= z
    .object({
      statusCode: z.number().int(),
      error: z.string(),
      code: z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]).describe(
        `Stable machine-readable code; branch on it, not on \`message\`. ${Object.entries(ERROR_CODES)
          .map(([code, [status, text]]) => `${code} (${status}): ${text}`)
          .join(' ')}`,
      ),
      message: z.string(),
      details: z.unknown().optional(),
      requestId: z.string(),
    })
    .meta({
      id: 'Error',
      description: 'Every 4xx/5xx response has this shape; `error` is the HTTP status name, `code` a stable machine-readable code.',
      example: {
        statusCode: 400,
        error: 'Bad Request',
        code: 'VALIDATION_FAILED',
        message: 'Validation failed: body.email: Invalid email address',
        details: [{ field: 'body.email', message: 'Invalid email address', code: 'invalid_format' }],
        requestId: '4b1f5a7e-2c1d-4a4e-9a43-5c8a3f0e8d21',
      },
    });
  return schema;
}

export function statusName(statusCode: number): string {
  return STATUS_CODES[statusCode] ?? 'Error';
}

export function errorBody(statusCode: number, message: string, requestId: string, details?: unknown, code: ErrorCode = generalCode(statusCode)): ErrorBody {
  const body: ErrorBody = { statusCode, error: statusName(statusCode), code, message, requestId };
  if (details !== undefined) body.details = details;
  return body;
}
