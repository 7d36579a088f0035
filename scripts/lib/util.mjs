import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

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

// The functions' region for the local project (FUNCTIONS_REGION in functions/.env files, as the functions read it):
// the Functions emulator serves a function at /<project>/<region>/<name>. Needs the built functions (lib/).
export function functionsRegion() {
  const { parseEnv } = require('node:util');
  const fs = require('node:fs');
  const read = (name) => (fs.existsSync(path.join(functionsDir, name)) ? parseEnv(fs.readFileSync(path.join(functionsDir, name), 'utf8')) : {});
  const env = { ...read('.env'), ...read(`.env.${PROJECT_ID}`), ...read('.env.local') };
  return require(path.join(functionsDir, 'lib', 'platform', 'deploy', 'settings.js')).functionsRegion(env);
}
