import type { z } from 'zod';
import { ValidationError, type FieldProblem } from './app-error';

// Turns zod issues into a 400 whose message names every field.
export function validationErrorFromZod(error: z.ZodError, location: string): ValidationError {
  const details: FieldProblem[] = error.issues.map((issue) => ({
    field: [location, ...issue.path.map(String)].join('.'),
    message: issue.message,
    code: issue.code,
  }));
  const summary = details.map((d) => `${d.field}: ${d.message}`).join('; ');
  return new ValidationError(`Validation failed: ${summary}`, details);
}
