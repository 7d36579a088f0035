import { isProduction } from '../../platform/core/config';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import type { AppContext } from '../../platform/core/http/module';
import { configuredProbes } from './health.probes';
import { HealthDepsSchema, HealthEnvSchema, HealthSchema } from './health.schemas';
import { createHealthService } from './health.service';

export function healthRoutes({ config }: AppContext): AnyRoute[] {
  const service = createHealthService({ config, probes: () => configuredProbes(config) });
  const production = isProduction(config);
  const publicDetail = { enabled: !production, note: 'Not available when NODE_ENV=production (404).' };
  const adminDetail = {
    enabled: !production || config.HEALTH_DETAIL_ENABLED,
    note: 'In production only when HEALTH_DETAIL_ENABLED=true (otherwise 404).',
  };
  const dependencies = async ({ status }: { status(code: number): void }) => {
    const deps = await service.dependencies();
    if (deps.status !== 'ok') status(503);
    return deps;
  };
  const depsResponses = { 503: { description: 'At least one dependency failed; the body lists each check.', schema: HealthDepsSchema } };

  return [
    defineRoute({
      method: 'get',
      path: '/health',
      operationId: 'getHealth',
      tag: 'health',
      summary: 'Liveness',
      auth: 'public',
      response: { description: 'The API process is up.', schema: HealthSchema },
      appCheck: false,
      handler: () => service.liveness(),
    }),
    defineRoute({
      method: 'get',
      path: '/health/env',
      operationId: 'getHealthEnv',
      tag: 'health',
      summary: 'Configuration diagnostics (secrets masked)',
      auth: 'public',
      availability: publicDetail,
      errors: [404],
      response: { description: 'Effective configuration and runtime.', schema: HealthEnvSchema },
      appCheck: false,
      handler: () => service.environment(),
    }),
    defineRoute({
      method: 'get',
      path: '/health/deps',
      operationId: 'getHealthDeps',
      tag: 'health',
      summary: 'Dependency checks with latency',
      auth: 'public',
      availability: publicDetail,
      errors: [404],
      response: { description: 'Every dependency answered.', schema: HealthDepsSchema },
      otherResponses: depsResponses,
      appCheck: false,
      handler: dependencies,
    }),
    defineRoute({
      method: 'get',
      path: '/health/admin/env',
      operationId: 'adminGetHealthEnv',
      tag: 'health',
      summary: 'Configuration diagnostics for administrators',
      auth: ['ADMIN'],
      availability: adminDetail,
      errors: [404],
      response: { description: 'Effective configuration and runtime.', schema: HealthEnvSchema },
      appCheck: false,
      handler: () => service.environment(),
    }),
    defineRoute({
      method: 'get',
      path: '/health/admin/deps',
      operationId: 'adminGetHealthDeps',
      tag: 'health',
      summary: 'Dependency checks for administrators',
      auth: ['ADMIN'],
      availability: adminDetail,
      errors: [404],
      response: { description: 'Every dependency answered.', schema: HealthDepsSchema },
      otherResponses: depsResponses,
      appCheck: false,
      handler: dependencies,
    }),
  ];
}
