import type { z } from 'zod';
import { ValidationError, type FieldProblem } from './app-error';

// Turns zod issues (of body, query, params…) into one 400 whose message names every field.
export function validationErrorFromZod(failures: Array<{ error: z.ZodError; location: string }>): ValidationError {
  const details: FieldProblem[] = failures.flatMap(({ error, location }) =>
    error.issues.map((issue) => ({
      field: [location, ...issue.path.map(String)].join('.'),
      message: issue.message,
      code: issue.code,
    })),
  );
  const summary = details.map((d) => `${d.field}: ${d.message}`).join('; ');
  return new ValidationError(`Validation failed: ${summary}`, details);
}
