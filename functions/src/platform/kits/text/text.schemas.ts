import { z } from 'zod';
import { codePoints } from './text';

/**
 * Text a person writes (a post, a bio, a comment): trimmed, `min`..`max` characters counted in code points, as
 * people count them (an emoji is one; `.max()` would count UTF-16 units, two for most emoji). Lone surrogates never
 * get this far (the route kit refuses them).
 */
export function writtenText(max: number, min = 1) {
  return z
    .string()
    .trim()
    .refine((s) => {
      const n = codePoints(s);
      return n >= min && n <= max;
    }, `must be ${min} to ${max} characters`)
    .meta({ minLength: min, maxLength: max });
}
