import { createHealthService } from '../../../src/modules/health/health.service';
import { testConfig } from '../../helpers/config';

const fixedNow = () => new Date('2026-01-02T03:04:05.000Z');

describe('health service', () => {
  it('reports ok when every probe answers, with a latency each', async () => {
    const service = createHealthService({
      config: testConfig(),
      now: fixedNow,
      probes: () => [
        { name: 'firestore', target: 'fake', check: async () => undefined },
        { name: 'smtp', target: 'fake:25', check: () => new Promise((r) => setTimeout(r, 20)) },
      ],
    });
    const deps = await service.dependencies();
    expect(deps.status).toBe('ok');
    expect(deps.checkedAt).toBe('2026-01-02T03:04:05.000Z');
    expect(deps.checks.map((c) => [c.name, c.ok])).toEqual([
      ['firestore', true],
      ['smtp', true],
    ]);
    expect(deps.checks[1].latencyMs).toBeGreaterThanOrEqual(15);
  });

  it('reports degraded with the reason when a probe fails or hangs', async () => {
    const service = createHealthService({
      config: testConfig(),
      probeTimeoutMs: 50,
      probes: () => [
        {
          name: 'firestore',
          target: 'fake',
          check: async () => {
            throw new Error('connect ECONNREFUSED 127.0.0.1:8080\n    at stack');
          },
        },
        { name: 'auth', target: 'fake', check: () => new Promise(() => undefined) },
      ],
    });
    const deps = await service.dependencies();
    expect(deps.status).toBe('degraded');
    expect(deps.checks[0]).toMatchObject({ ok: false, error: 'connect ECONNREFUSED 127.0.0.1:8080' });
    expect(deps.checks[1]).toMatchObject({ ok: false, error: 'no answer within 50 ms' });
  });

  it('liveness names the service and never touches dependencies', () => {
    const service = createHealthService({
      config: testConfig(),
      now: fixedNow,
      probes: () => {
        throw new Error('must not run');
      },
    });
    expect(service.liveness()).toMatchObject({ status: 'ok', service: 'superapp-backend', time: '2026-01-02T03:04:05.000Z' });
  });
});
