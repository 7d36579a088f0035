import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';

const functionsDir = path.join(__dirname, '..', '..');

function envFile(name: string): Record<string, string> {
  const file = path.join(functionsDir, name);
  return fs.existsSync(file) ? (parseEnv(fs.readFileSync(file, 'utf8')) as Record<string, string>) : {};
}

/** The environment the Functions emulator gives the API: process env, then .env, .env.<project>, .env.local; secrets last. */
export function functionsEnv(): Record<string, string | undefined> {
  const project = process.env.GCLOUD_PROJECT ?? 'demo-superapp';
  return { ...process.env, ...envFile('.env'), ...envFile(`.env.${project}`), ...envFile('.env.local'), ...envFile('.secret.local') };
}
