import * as z from 'zod/mini';
import { describe, lazySchema } from './documents';

/** `meta/seed`: what the emulator data holds (written by scripts/seed.mjs). */
export const metaSeedDocument = lazySchema(() =>
  describe(
    z.object({
      version: describe(z.number(), 'The seed version (SEED_VERSION in scripts/seed.mjs).'),
      description: z.string(),
      generatedBy: describe(z.string(), 'The script that wrote it.'),
    }),
    'Public platform metadata: the version of the emulator seed data.',
  ),
);
