import fs from 'node:fs';
import path from 'node:path';

// The stack as `npm start` serves it (hosting rewrites to the `api` function).
export const BASE_URL = process.env.TEST_BASE_URL ?? 'http://127.0.0.1:5000';
export const API = `${BASE_URL}/api/v1`;

// The emulator reads its JWT secret from functions/.secret.local (written by scripts/stack.mjs).
export function localSecret(name: string): string {
  const file = path.join(__dirname, '..', '..', '.secret.local');
  const line = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}=`));
  if (!line) throw new Error(`${name} missing in functions/.secret.local`);
  return line.slice(name.length + 1).trim();
}

export function requireEmulators(): void {
  if (!process.env.FIRESTORE_EMULATOR_HOST) {
    throw new Error('Integration tests run under `firebase emulators:exec` (npm test): FIRESTORE_EMULATOR_HOST is not set');
  }
}
