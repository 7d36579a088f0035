import net from 'node:net';
import type { AppConfig } from '../../platform/core/config';
import { emulatorHosts } from '../../platform/core/firebase/firebase';
import { pingAuth, pingFirestore } from './health.repo';

export interface DependencyProbe {
  name: string;
  target: string;
  check(): Promise<void>;
}

export function tcpConnect(host: string, port: number, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    const done = (err?: Error) => {
      socket.destroy();
      if (err) reject(err);
      else resolve();
    };
    socket.setTimeout(timeoutMs, () => done(new Error(`connect timeout after ${timeoutMs} ms`)));
    socket.once('connect', () => done());
    socket.once('error', (err) => done(err));
  });
}

// Firestore and Auth always; SMTP and the HTTP SMS gateway only when configured.
export function configuredProbes(config: Readonly<AppConfig>, timeoutMs = 2000): DependencyProbe[] {
  const hosts = emulatorHosts();
  const probes: DependencyProbe[] = [
    { name: 'firestore', target: hosts.firestore ? `emulator ${hosts.firestore}` : 'Cloud Firestore', check: pingFirestore },
    { name: 'auth', target: hosts.auth ? `emulator ${hosts.auth}` : 'Firebase Auth', check: pingAuth },
  ];
  if (config.SMTP_HOST) {
    const port = config.SMTP_PORT;
    const host = config.SMTP_HOST;
    probes.push({ name: 'smtp', target: `${host}:${port}`, check: () => tcpConnect(host, port, timeoutMs) });
  }
  if (config.SMS_PROVIDER === 'http' && config.SMS_HTTP_URL) {
    const url = new URL(config.SMS_HTTP_URL);
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    probes.push({ name: 'sms-http', target: url.host, check: () => tcpConnect(url.hostname, port, timeoutMs) });
  }
  return probes;
}
