import { STATUS_CODES } from 'node:http';
import { z } from 'zod';

// The one error body of the API. `error` is the HTTP status name.
export const ErrorBodySchema = z
  .object({
    statusCode: z.number().int(),
    error: z.string(),
    message: z.string(),
    details: z.unknown().optional(),
    requestId: z.string(),
  })
  .meta({
    id: 'Error',
    description: 'Every 4xx/5xx response has this shape; `error` is the HTTP status name.',
    example: {
      statusCode: 400,
      error: 'Bad Request',
      message: 'Validation failed: body.email: Invalid email address',
      details: [{ field: 'body.email', message: 'Invalid email address', code: 'invalid_format' }],
      requestId: '4b1f5a7e-2c1d-4a4e-9a43-5c8a3f0e8d21',
    },
  });

export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export function statusName(statusCode: number): string {
  return STATUS_CODES[statusCode] ?? 'Error';
}

export function errorBody(statusCode: number, message: string, requestId: string, details?: unknown): ErrorBody {
  const body: ErrorBody = { statusCode, error: statusName(statusCode), message, requestId };
  if (details !== undefined) body.details = details;
  return body;
}
