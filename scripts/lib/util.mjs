import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const functionsDir = path.join(repoRoot, 'functions');
export const PROJECT_ID = 'demo-superapp';
export const BASE_URL = 'http://127.0.0.1:5000';

export function log(message) {
  process.stdout.write(`[superapp] ${message}\n`);
}

export function fail(message) {
  process.stderr.write(`[superapp] ERROR: ${message}\n`);
  process.exit(1);
}
