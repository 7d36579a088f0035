import { z } from 'zod';

/** A yes/no query parameter: `true` or `false` (anything else is a 400, not a silent false). */
export const BooleanQuerySchema = z.enum(['true', 'false']).transform((v) => v === 'true');
