import * as z from 'zod/mini';
import { describe, lazySchema, nullableTimestamp, timestamp, type RecordOf } from '../../platform/kits/firestore/documents';

const localized = () => z.object({ vi: z.string(), en: z.string() });

/** `app_config/{surface}`: the live app config of one app, public (read without sign-in); written when one is published or rolled back. */
export const appConfigDocument = lazySchema(() =>
  describe(
    z.object({
      surface: describe(z.enum(['CON', 'PAR', 'DRV']), 'The app: CON consumer, PAR partner, DRV driver.'),
      version: describe(z.number(), 'The live version of this config.'),
      minVersion: describe(z.string(), 'MAJOR.MINOR.PATCH: an older app must update before it goes on.'),
      latestVersion: describe(z.string(), 'MAJOR.MINOR.PATCH: an older app may offer an update.'),
      flags: describe(z.record(z.string(), z.boolean()), 'Feature flags (a flag absent is off).'),
      maintenance: describe(
        z.object({ active: z.boolean(), message: z.nullable(localized()), until: nullableTimestamp('when maintenance is planned to end') }),
        'Maintenance: while active (and before `until`), show the message instead of the app.',
      ),
      publishedAt: timestamp('when this version went live'),
    }),
    'The live app config of one surface (minimum version, feature flags, maintenance), readable by anyone.',
  ),
);
export type AppConfigDocument = RecordOf<typeof appConfigDocument>;
