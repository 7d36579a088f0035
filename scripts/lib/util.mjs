import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const functionsDir = path.join(repoRoot, 'functions');
export const PROJECT_ID = 'demo-superapp';
export const BASE_URL = 'http://127.0.0.1:5000';

/** A command-line option's value, `--name value` or `--name=value` (`fallback` when absent). */
export function option(name, fallback, args = process.argv.slice(2)) {
  const inline = args.find((a) => a.startsWith(`--${name}=`));
  if (inline) return inline.slice(name.length + 3);
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
}

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
  return require(path.join(functionsDir, 'lib', 'platform', 'core', 'deploy', 'settings.js')).functionsRegion(env);
}

// A system package installed with apt-get, only out loud: when we are root, apt-get exists and knows the package,
// and SUPERAPP_AUTO_INSTALL is not off. Returns 'installed', or why not ('not-root', 'no-apt', 'unknown', 'opted-out',
// 'failed'), so the caller can name the command to run instead.
export function aptInstall(pkg, { update = false } = {}) {
  if (process.getuid?.() !== 0) return 'not-root';
  if (spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status !== 0) return 'no-apt';
  if (update) spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore' });
  const policy = spawnSync('apt-cache', ['policy', pkg], { encoding: 'utf8' });
  if (!/Candidate: (?!\(none\))/.test(policy.stdout ?? '')) return 'unknown';
  if (process.env.SUPERAPP_AUTO_INSTALL === 'off') {
    log(`(not installing ${pkg} with apt-get: SUPERAPP_AUTO_INSTALL=off)`);
    return 'opted-out';
  }
  log(`installing ${pkg} with apt-get (set SUPERAPP_AUTO_INSTALL=off to be asked to do it yourself) …`);
  const res = spawnSync('apt-get', ['install', '-y', '-qq', pkg], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return res.status === 0 ? 'installed' : 'failed';
}
