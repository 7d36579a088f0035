import type { AppConfig } from '../../platform/core/config';
import { truncateText } from '../../platform/kits/text/text';
import { isProduction, maskConfig } from '../../platform/core/config';
import { emulatorHosts } from '../../platform/core/firebase/firebase';
import { API_VERSION, SERVICE_NAME } from '../../version';
import type { DependencyProbe } from './health.probes';
import type { DependencyCheck, Health, HealthDeps, HealthEnv } from './health.schemas';
import { iso } from '../../platform/kits/time/time';

export interface HealthServiceDeps {
  config: Readonly<AppConfig>;
  probes: () => DependencyProbe[];
  now?: () => Date;
  probeTimeoutMs?: number;
}

function withTimeout(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function createHealthService({ config, probes, now = () => new Date(), probeTimeoutMs = 3000 }: HealthServiceDeps) {
  async function runProbe(probe: DependencyProbe): Promise<DependencyCheck> {
    const started = process.hrtime.bigint();
    try {
      await withTimeout(probe.check(), probeTimeoutMs);
      return { name: probe.name, target: probe.target, ok: true, latencyMs: elapsedMs(started) };
    } catch (err) {
      // The reason, not the stack: diagnostics are for operators, still no internals beyond the message.
      const message = err instanceof Error ? err.message.split('\n')[0] : String(err);
      return { name: probe.name, target: probe.target, ok: false, latencyMs: elapsedMs(started), error: truncateText(message, 200) };
    }
  }

  return {
    liveness(): Health {
      return {
        status: 'ok',
        service: SERVICE_NAME,
        version: API_VERSION,
        time: iso(now().getTime()),
        uptimeSec: Math.round(process.uptime()),
      };
    },

    environment(): HealthEnv {
      const hosts = emulatorHosts();
      return {
        nodeEnv: config.NODE_ENV,
        production: isProduction(config),
        config: maskConfig(config),
        runtime: {
          node: process.version,
          functionTarget: process.env.FUNCTION_TARGET ?? process.env.K_SERVICE ?? null,
          emulators: { firestore: hosts.firestore ?? null, auth: hosts.auth ?? null, storage: hosts.storage ?? null },
        },
      };
    },

    async dependencies(): Promise<HealthDeps> {
      const checks = await Promise.all(probes().map(runProbe));
      return {
        status: checks.every((c) => c.ok) ? 'ok' : 'degraded',
        checkedAt: iso(now().getTime()),
        checks,
      };
    },
  };
}

export type HealthService = ReturnType<typeof createHealthService>;

function elapsedMs(started: bigint): number {
  return Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100;
}
