import { z } from 'zod';

export const HealthSchema = z
  .object({
    status: z.literal('ok'),
    service: z.string(),
    version: z.string(),
    time: z.iso.datetime(),
    uptimeSec: z.number().nonnegative(),
  })
  .meta({ id: 'Health', description: 'Liveness of the API process.' });

const MaskedValueSchema = z.union([z.string(), z.number(), z.boolean(), z.array(z.string()), z.null()]);

export const HealthEnvSchema = z
  .object({
    nodeEnv: z.string(),
    production: z.boolean(),
    config: z.record(z.string(), MaskedValueSchema).describe('Every configuration switch; secrets are shown as "********" when set, null when not.'),
    runtime: z.object({
      node: z.string(),
      functionTarget: z.string().nullable(),
      emulators: z.object({
        firestore: z.string().nullable(),
        auth: z.string().nullable(),
        storage: z.string().nullable(),
      }),
    }),
  })
  .meta({ id: 'HealthEnv', description: 'Configuration diagnostics with secrets masked.' });

export const DependencyCheckSchema = z
  .object({
    name: z.string(),
    target: z.string(),
    ok: z.boolean(),
    latencyMs: z.number().nonnegative(),
    error: z.string().optional(),
  })
  .meta({ id: 'DependencyCheck' });

export const HealthDepsSchema = z
  .object({
    status: z.enum(['ok', 'degraded']),
    checkedAt: z.iso.datetime(),
    checks: z.array(DependencyCheckSchema),
  })
  .meta({ id: 'HealthDeps', description: 'Reachability and latency of Firestore and each configured backend.' });

export type Health = z.infer<typeof HealthSchema>;
export type HealthEnv = z.infer<typeof HealthEnvSchema>;
export type DependencyCheck = z.infer<typeof DependencyCheckSchema>;
export type HealthDeps = z.infer<typeof HealthDepsSchema>;
