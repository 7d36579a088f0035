#!/usr/bin/env node
// One entry for the developer commands (the `commands` table at the end). Each runs on the deployed runtime's Node
// (scripts/lib/runtime.mjs), installs what is missing, builds, and runs the Firebase emulators (offline where the
// machine has the Firestore emulator; see scripts/lib/emulator-env.mjs).
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CORE_EMULATORS, emulatorEnv, emulatorUiAvailable, runnableEmulators } from './lib/emulator-env.mjs';
import { DEV_RATE_LIMITS, startSinks, stackEnv } from './lib/profiles.mjs';
import { ensureRuntimeNode } from './lib/runtime.mjs';
import { BASE_URL, PROJECT_ID, fail, functionsDir, log, repoRoot } from './lib/util.mjs';
import { fileDurations, markedAt, printTiming, recordDurations, runLive, runQuiet, tierClock } from './lib/test-timing.mjs';

const firebaseBin = path.join(repoRoot, 'node_modules', 'firebase-tools', 'lib', 'bin', 'firebase.js');
// The typed API client and the admin console (its own package: browser code, its own dependencies).
const webDir = path.join(repoRoot, 'web');
const jestBin = path.join(functionsDir, 'node_modules', 'jest', 'bin', 'jest.js');
const resultsDir = path.join(repoRoot, '.cache', 'test-results');
// firebase-admin 14 loads ESM-only packages (jose) with require(); jest's module loader allows that only with the VM
// modules flag (plain Node 24 needs none).
const JEST_NODE_FLAGS = '--experimental-vm-modules --no-warnings=ExperimentalWarning';
// Every jest run of npm test and test:files is at a lower CPU priority than the emulators: on two busy cores the tests (and the API in
// process) wait their turn, while the Firestore emulator, the triggers and the Functions emulator's `api` answer first.
// At equal priority a run on a slow machine queued triggers past the tests' waits and a request through Hosting past
// its 60 s (2026-12-01).
const BEHIND_EMULATORS = spawnSync('nice', ['-n', '10', 'true']).status === 0 ? 'nice -n 10 ' : '';
// Jest workers for the emulator tiers (override with TEST_WORKERS; 1 runs them in band).
// Six on the 2-core CI machine: the files mostly wait on the emulators, and four left a quarter of the CPU idle
// (docs/testing.md, "Time budget").
const TEST_WORKERS = Number(process.env.TEST_WORKERS) || 6;

function run(cmd, args, options = {}) {
  const res = spawnSync(cmd, args, { stdio: 'inherit', cwd: repoRoot, ...options });
  if (res.error) fail(`${cmd} ${args.join(' ')}: ${res.error.message}`);
  return res.status ?? 1;
}

function mustRun(cmd, args, options = {}) {
  const status = run(cmd, args, options);
  if (status !== 0) fail(`\`${cmd} ${args.join(' ')}\` exited with ${status}`);
}

// Installs when node_modules is missing or was installed from another package.json/lockfile.
function ensureDeps(dir) {
  const lock = path.join(dir, 'package-lock.json');
  const stamp = path.join(dir, 'node_modules', '.superapp-install-stamp');
  // What npm installs from: the dependency fields and the lockfile (a new script or version line installs nothing).
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const installed = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies', 'overrides'].map((field) => manifest[field] ?? null);
  const wanted = createHash('sha256')
    .update(JSON.stringify(installed))
    .update(fs.existsSync(lock) ? fs.readFileSync(lock) : '')
    .digest('hex');
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === wanted) return;
  log(`installing dependencies in ${path.relative(repoRoot, dir) || '.'} with npm ci …`);
  if (!fs.existsSync(lock)) fail(`${path.relative(repoRoot, lock)} is missing: installs are reproducible from the committed lockfile only`);
  // The exact versions of the lockfile, never a fresh resolution. A lockfile npm ci refuses is a defect to
  // fix (npm install, then scripts/lock-complete.mjs), not something to paper over.
  const status = run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir });
  if (status !== 0) {
    fail(`npm ci refused ${path.relative(repoRoot, lock)} (exit ${status}). Regenerate it with \`npm install\` in ${path.relative(repoRoot, dir) || '.'}, then \`node scripts/lock-complete.mjs ${path.relative(repoRoot, lock)}\`, and commit it.`);
  }
  fs.writeFileSync(stamp, wanted);
}

// The emulator reads secrets from functions/.secret.local; without it it would try Secret Manager.
function ensureLocalSecrets() {
  const file = path.join(functionsDir, '.secret.local');
  const existing = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  const lines = [];
  for (const name of ['JWT_SECRET', 'JWT_REFRESH_SECRET']) {
    if (!new RegExp(`^${name}=`, 'm').test(existing)) lines.push(`${name}=${randomBytes(32).toString('hex')}`);
  }
  if (lines.length === 0) return;
  fs.writeFileSync(file, `${existing}${existing && !existing.endsWith('\n') ? '\n' : ''}${lines.join('\n')}\n`, { mode: 0o600 });
  log(`wrote development secrets to functions/.secret.local (${lines.length} new)`);
}

function build({ typecheckTests = false } = {}) {
  // lib/ (tsc) serves the tools (seed, OpenAPI, benchmarks' helpers); dist/ (esbuild) is what the Functions
  // emulator, the in-process tests and a deploy run.
  log('building functions (tsc, then the esbuild bundle) …');
  mustRun(process.execPath, [path.join(functionsDir, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], {
    cwd: functionsDir,
  });
  mustRun(process.execPath, [path.join(functionsDir, 'bundle.mjs')], { cwd: functionsDir });
  if (typecheckTests) {
    log('type-checking tests …');
    mustRun(process.execPath, [path.join(functionsDir, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json', '--noEmit'], {
      cwd: functionsDir,
    });
  }
}

// `web`: the commands that serve or test the console (start, test:files, bench) also install the web package and
// build the console; the tests' type-check needs the package (the typed client's test imports it); the others (a
// module's run, migrations, deploy:check) need neither.
function prepare(options = {}) {
  ensureDeps(repoRoot);
  ensureDeps(functionsDir);
  if (options.web || options.typecheckTests) ensureDeps(webDir);
  ensureLocalSecrets();
  build(options);
  if (options.web) buildConsole();
}

// The admin console into openapi/admin/ (Hosting serves it at /admin); fails over its size budget.
function buildConsole(extra = []) {
  mustRun(process.execPath, [path.join(webDir, 'scripts', 'build-console.mjs'), ...extra]);
}

// npm run build:console (and Hosting's predeploy): installs the web package when needed, then builds the console.
// Not the root's packages: a deploy runs from them (npm ci there would remove the running firebase-tools).
function buildConsoleCommand() {
  ensureDeps(webDir);
  buildConsole();
}

// `npm start -- --keep-data`: the emulators' data is exported here on exit and imported at the next such start.
const keptDataDir = path.join(repoRoot, '.cache', 'emulator-data');
const hasExport = (dir) => fs.existsSync(path.join(dir, 'firebase-export-metadata.json'));

function emulatorArgs(command, only, extra = [], { importFrom = path.join(repoRoot, 'emulator-data') } = {}) {
  const args = [firebaseBin, command, '--project', PROJECT_ID, '--only', only.join(',')];
  if (hasExport(importFrom)) args.push('--import', importFrom);
  return [...args, ...extra];
}

// firebase.json turns the Emulator UI on; where firebase-tools cannot fetch it (offline), `npm start` runs from a copy
// with it off (a config file must sit in the project folder: firebase-tools resolves paths from its folder).
function configWithoutUi() {
  const file = path.join(repoRoot, '.firebase.no-ui.json');
  const config = JSON.parse(fs.readFileSync(path.join(repoRoot, 'firebase.json'), 'utf8'));
  config.emulators = { ...config.emulators, ui: { ...config.emulators?.ui, enabled: false } };
  fs.writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  return file;
}

function describeEnv() {
  const result = emulatorEnv();
  log(`Java ${result.java.major} at ${result.java.home}; Firestore emulator: ${result.firestore}`);
  return result.env;
}

async function waitForHealth(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      const res = await fetch(url);
      if (res.status === 200) return true;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

async function start() {
  prepare({ web: true });
  // `--test-profile`: the environment `npm test` uses (test sinks, Google test client), for running tests by hand.
  const profile = process.argv.includes('--test-profile') ? 'test' : 'dev';
  const sinks = await startSinks(profile, { print: profile === 'dev' });
  const env = { ...describeEnv(), ...stackEnv(profile) };
  const only = runnableEmulators();
  const keepData = process.argv.includes('--keep-data');
  const extra = keepData ? ['--export-on-exit', keptDataDir] : [];
  if (keepData) log(hasExport(keptDataDir) ? `--keep-data: resuming from ${path.relative(repoRoot, keptDataDir)} (delete it to start from the seed again)` : `--keep-data: starting from the seed; the data is saved to ${path.relative(repoRoot, keptDataDir)} on exit`);
  const ui = emulatorUiAvailable();
  if (!ui) log('Emulator UI: firebase-tools could not fetch it (offline?); going on without it (the API and data are unaffected)');
  log(`starting emulators (${only.join(', ')}${ui ? ', ui' : ''}) …`);
  const args = emulatorArgs('emulators:start', only, ui ? extra : [...extra, '--config', configWithoutUi()], { importFrom: keepData && hasExport(keptDataDir) ? keptDataDir : undefined });
  const child = spawn(process.execPath, args, { cwd: repoRoot, env, stdio: 'inherit' });
  // Ctrl-C reaches firebase-tools itself (same process group): a second SIGINT from here would force its exit and
  // skip the --keep-data export, so only SIGTERM (sent to this process alone) is passed on.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => {
    if (child.exitCode === null) child.kill('SIGTERM');
  });
  child.on('exit', (code, signal) => {
    sinks?.kill();
    demoDrivers?.kill();
    process.exit(code ?? (signal ? 0 : 1));
  });
  let demoDrivers;
  if (await waitForHealth(`${BASE_URL}/api/v1/health`, child, 180_000)) {
    // The seeded demo drivers stay online (and play the rides they get) unless DEMO_DRIVERS=off.
    if (profile === 'dev' && process.env.DEMO_DRIVERS !== 'off') {
      demoDrivers = spawn(process.execPath, [path.join(repoRoot, 'scripts', 'demo-drivers.mjs'), BASE_URL], { stdio: ['ignore', 'inherit', 'inherit'] });
    }
    log('ready');
    log(`base_url: ${BASE_URL}   (API: ${BASE_URL}/api/v1, health: ${BASE_URL}/api/v1/health)`);
    log(`docs:     ${BASE_URL}/docs   (OpenAPI JSON: ${BASE_URL}/docs-json)`);
    log(`mail and SMS: local sinks, printed here as [dev-inbox]; inbox JSON at ${env.SINKS_URL}/inbox`);
    if (ui) log('Emulator UI: http://127.0.0.1:4000 (Firestore data, Auth users, function logs)');
    log('press Ctrl-C to stop');
  } else if (child.exitCode === null) {
    log(`WARNING: ${BASE_URL}/api/v1/health did not answer 200 within 180 s; see the emulator output above`);
  }
}

function readJestResults(file) {
  if (!fs.existsSync(file)) return { passed: 0, failed: 1, crashed: `no results in ${path.relative(repoRoot, file)}` };
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  // A suite that fails to load has no failed test but must still count as a failure.
  const brokenSuites = r.testResults.filter((s) => s.status === 'failed' && s.assertionResults.every((a) => a.status !== 'failed'));
  for (const s of brokenSuites) log(`suite failed to run: ${path.relative(repoRoot, s.name)}\n${s.message}`);
  // Jest prints failures far above the end of a long log; CI shows only the tail, so repeat them here.
  for (const s of r.testResults) {
    for (const a of s.assertionResults.filter((x) => x.status === 'failed')) {
      const why = (a.failureMessages ?? []).join('\n').split('\n').slice(0, 12).join('\n');
      log(`FAILED ${path.relative(repoRoot, s.name)} › ${a.fullName} (${a.duration ?? '?'} ms)\n${why}`);
    }
  }
  return { passed: r.numPassedTests, failed: r.numFailedTests + brokenSuites.length };
}

// npm test. Steps that do not depend on each other run side by side (the machine has two cores and most steps use
// one): the build, the type-check, the sound check and the form checks; then the unit tier while the emulators start.
async function test() {
  const started = Date.now();
  const clock = tierClock();
  ensureDeps(repoRoot);
  ensureDeps(functionsDir);
  ensureDeps(webDir);
  ensureLocalSecrets();
  fs.rmSync(resultsDir, { recursive: true, force: true });
  fs.mkdirSync(resultsDir, { recursive: true });
  const jest = (projects, out, workers = '--runInBand') =>
    `${BEHIND_EMULATORS}"${process.execPath}" ${JEST_NODE_FLAGS} "${jestBin}" --config "${path.join(functionsDir, 'jest.config.js')}" --selectProjects ${projects.join(' ')} ${workers} --json --outputFile "${out}"`;

  const soundsOut = path.join(resultsDir, 'sounds.json');
  const { form, web } = await clock.time('build, type-check, sounds, form, web', () => checksSideBySide(soundsOut));

  const unitOut = path.join(resultsDir, 'unit.json');
  const unitDone = path.join(resultsDir, 'unit.done');
  const mark = (name) => path.join(resultsDir, `${name}.mark`);
  log('unit tests, while the emulators start (integration, smoke and rules tests wait for the unit tier) …');
  const sinks = await startSinks('test', { print: false });
  const env = { ...describeEnv(), ...stackEnv('test') };
  // Tests' map spots: one grid cell per call across the run's jest processes (test/helpers/geo.ts).
  env.TEST_GEO_CELLS = path.join(resultsDir, 'geo-cells');
  const emuOut = path.join(resultsDir, 'emulators.json');
  const serialOut = path.join(resultsDir, 'serial.json');
  const browserOut = path.join(resultsDir, 'browser.json');
  // Every query shape the API, triggers and tasks send is recorded for deploy:check's index coverage.
  const queryLog = path.join(resultsDir, 'firestore-queries.jsonl');
  env.FIRESTORE_QUERY_LOG = queryLog;
  // And what each API operation, trigger and task run costs in Firestore reads and writes, for the cost budgets.
  const costLog = path.join(resultsDir, 'firestore-costs.jsonl');
  env.FIRESTORE_COST_LOG = costLog;
  // The production smoke script runs against this stack too (through Hosting, as against a deployment).
  const smokeOut = path.join(resultsDir, 'smoke.txt');
  const smoke = `"${process.execPath}" "${path.join(repoRoot, 'scripts', 'smoke.mjs')}" --base-url ${BASE_URL} --otp-inbox ${env.SINKS_URL} --docs on > "${smokeOut}" 2>&1`;
  // Test files mostly wait on the emulators, so more workers than cores pay off (TEST_WORKERS); the serial project (files
  // asserting whole-database facts) runs alone afterwards, whatever the first run's outcome. The markers time the tiers.
  const touch = (name) => `touch "${mark(name)}"`;
  const emulatorTests = [
    touch('ready'),
    `while [ ! -e "${unitDone}" ]; do sleep 0.2; done`,
    touch('integration'),
    `${jest(['integration', 'smoke', 'rules'], emuOut, `--maxWorkers=${TEST_WORKERS}`)}; first=$?`,
    touch('serial'),
    `${jest(['serial'], serialOut)}; second=$?`,
    touch('browser'),
    `${jest(['browser'], browserOut)}; third=$?`,
    touch('smoke'),
    smoke,
    touch('stop'),
    '[ $first -eq 0 ] && [ $second -eq 0 ] && [ $third -eq 0 ]',
  ].join('; ');
  const emulatorsStarted = Date.now();
  const emulatorRun = runLive(process.execPath, emulatorArgs('emulators:exec', CORE_EMULATORS, [emulatorTests]), { env });
  // The unit tier in two workers (its files are CPU-bound), its output printed whole when it ends.
  const unitRun = await runQuiet('sh', ['-c', jest(['unit'], unitOut, '--maxWorkers=2')]);
  process.stdout.write(unitRun.output);
  clock.add('unit', unitRun.ms);
  fs.writeFileSync(unitDone, '');
  try {
    await emulatorRun;
  } finally {
    sinks?.kill();
    fs.rmSync(env.TEST_GEO_CELLS, { recursive: true, force: true });
  }
  const emulatorsEnded = Date.now();
  const at = (name) => markedAt(mark(name));
  if (at('ready')) clock.add('emulators start', at('ready') - emulatorsStarted);
  for (const [name, from, to] of [
    ['integration+smoke+rules', 'integration', 'serial'],
    ['serial', 'serial', 'browser'],
    ['browser', 'browser', 'smoke'],
    ['smoke script', 'smoke', 'stop'],
  ]) {
    if (at(from) && at(to)) clock.add(name, at(to) - at(from));
  }
  if (at('stop')) clock.add('emulators stop', emulatorsEnded - at('stop'));

  log('smoke script against the test stack, then deploy:check …');
  const smokeText = fs.existsSync(smokeOut) ? fs.readFileSync(smokeOut, 'utf8') : '';
  process.stdout.write(smokeText);
  const smokeTally = /smoke: (\d+) passed, (\d+) failed/.exec(smokeText);
  const smokeResult = smokeTally ? { passed: Number(smokeTally[1]), failed: Number(smokeTally[2]) } : { passed: 0, failed: 1, crashed: 'smoke script did not finish' };
  const deployOut = path.join(resultsDir, 'deploy-check.json');
  await clock.time('deploy:check', () => runLive(process.execPath, [path.join(repoRoot, 'scripts', 'deploy-check.mjs'), '--queries', queryLog, `--json=${deployOut}`]));
  const deploy = fs.existsSync(deployOut) ? JSON.parse(fs.readFileSync(deployOut, 'utf8')) : { passed: 0, failed: 1, crashed: 'deploy:check did not finish' };
  const costOut = path.join(resultsDir, 'cost-check.json');
  await clock.time('cost budgets', () => runLive(process.execPath, [path.join(repoRoot, 'scripts', 'cost-check.mjs'), '--costs', costLog, `--json=${costOut}`]));
  const costs = fs.existsSync(costOut) ? JSON.parse(fs.readFileSync(costOut, 'utf8')) : { passed: 0, failed: 1, crashed: 'the cost check did not finish' };

  const sounds = fs.existsSync(soundsOut) ? JSON.parse(fs.readFileSync(soundsOut, 'utf8')) : { passed: 0, failed: 1, crashed: 'sound check did not run' };
  const unit = readJestResults(unitOut);
  const emu = readJestResults(emuOut);
  const serial = readJestResults(serialOut);
  const browser = readJestResults(browserOut);
  const passed = form.passed + web.passed + sounds.passed + unit.passed + emu.passed + serial.passed + browser.passed + smokeResult.passed + deploy.passed + costs.passed;
  const failed = form.failed + web.failed + sounds.failed + unit.failed + emu.failed + serial.failed + browser.failed + smokeResult.failed + deploy.failed + costs.failed;
  for (const crash of [sounds.crashed, unit.crashed, emu.crashed, serial.crashed, browser.crashed, smokeResult.crashed, deploy.crashed, costs.crashed].filter(Boolean))
    log(`test runner did not finish: ${crash}`);
  const durations = fileDurations([unitOut, emuOut, serialOut, browserOut]);
  recordDurations(durations);
  printTiming(clock.tiers, durations, Date.now() - started);
  log(
    `form: ${form.passed} passed, ${form.failed} failed; web: ${web.passed} passed, ${web.failed} failed; sounds: ${sounds.passed} passed, ${sounds.failed} failed; unit: ${unit.passed} passed, ${unit.failed} failed; emulators: ${emu.passed} passed, ${emu.failed} failed; serial: ${serial.passed} passed, ${serial.failed} failed; browser: ${browser.passed} passed, ${browser.failed} failed; smoke script: ${smokeResult.passed} passed, ${smokeResult.failed} failed; deploy:check: ${deploy.passed} passed, ${deploy.failed} failed; cost budgets: ${costs.passed} passed, ${costs.failed} failed; ${Math.round((Date.now() - started) / 1000)} s`,
  );
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
  process.exit(failed > 0 || passed === 0 ? 1 : 0);
}

// npm test's first steps side by side: the build (lib/ emitted without its own type-check, since the type-check of
// src and tests covers it, and the esbuild bundle), the type-check, the sound check, prettier and eslint. Each
// step's output is printed whole when all have ended; a failed build or type-check stops the run as before.
async function checksSideBySide(soundsOut) {
  const tsc = path.join(functionsDir, 'node_modules', 'typescript', 'bin', 'tsc');
  const inFunctions = { cwd: functionsDir };
  log('build, type-check, sound check and form checks, side by side …');
  const steps = [
    ['build lib (tsc, emit only)', runQuiet(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--noCheck'], inFunctions)],
    ['build bundle (esbuild)', runQuiet(process.execPath, [path.join(functionsDir, 'bundle.mjs')], inFunctions)],
    ['type-check (src and tests)', runQuiet(process.execPath, [tsc, '-p', 'tsconfig.json', '--noEmit'], inFunctions)],
    ['sound pack check (re-measures assets/sounds)', runQuiet(process.execPath, [path.join(repoRoot, 'scripts', 'sounds', 'check.mjs'), `--json=${soundsOut}`])],
    ['format (prettier --check)', runQuiet(process.execPath, [path.join(functionsDir, 'node_modules', 'prettier', 'bin', 'prettier.cjs'), '--check', '--log-level', 'warn', ...PRETTIER_TARGETS], inFunctions)],
    ['lint (eslint)', runQuiet(process.execPath, [path.join(functionsDir, 'node_modules', 'eslint', 'bin', 'eslint.js'), '--max-warnings', '0', ...FORM_TARGETS], inFunctions)],
    // The web package: the typed client matches openapi/openapi.json, it and the console type-check, the console
    // builds within its size budget (the browser tests in the smoke tier load this build), its lint.
    ['typed client is current (web/scripts/client.mjs --check)', runQuiet(process.execPath, [path.join(webDir, 'scripts', 'client.mjs'), '--check'])],
    ['type-check web (client and console)', runQuiet(process.execPath, [path.join(webDir, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: webDir })],
    ['build the admin console', runQuiet(process.execPath, [path.join(webDir, 'scripts', 'build-console.mjs'), `--json=${path.join(resultsDir, 'console-size.json')}`])],
    ['lint web (eslint: the hooks rules)', runQuiet(process.execPath, [path.join(functionsDir, 'node_modules', 'eslint', 'bin', 'eslint.js'), '--max-warnings', '0', ...WEB_LINT_TARGETS], { cwd: webDir })],
  ];
  const results = await Promise.all(steps.map(([, p]) => p));
  steps.forEach(([name], i) => {
    log(`${name} (${results[i].ms} ms)`);
    process.stdout.write(results[i].output);
  });
  const [lib, bundle, typecheck, , format, lint, ...webChecks] = results;
  for (const [name, r] of [['the lib build', lib], ['the bundle', bundle], ['the type-check', typecheck]]) if (r.status !== 0) fail(`${name} failed (exit ${r.status}); its output is above`);
  if (format.status !== 0) log('format: files above differ from prettier\'s layout; `npm run format` rewrites them');
  return {
    form: { passed: (format.status === 0) + (lint.status === 0), failed: (format.status !== 0) + (lint.status !== 0) },
    web: { passed: webChecks.filter((r) => r.status === 0).length, failed: webChecks.filter((r) => r.status !== 0).length },
  };
}

async function bench() {
  prepare({ web: true });
  // P3, P4, P6 need the emulators; they run after P1/P2, which are sensitive to a busy machine.
  const measureRealtime = () => {
    const out = path.join(repoRoot, '.cache', 'bench-realtime.json');
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.rmSync(out, { force: true });
    const uploadsOut = path.join(repoRoot, '.cache', 'bench-uploads.json');
    fs.rmSync(uploadsOut, { force: true });
    log('P3, P4, P6, P7, P9, P10, P11, P12, P13, P14, P15, P16, P17 on the emulators (hub fan-out, API-to-listener latency, 100 listeners, upload memory, ledger throughput, ride booking, driver positions, places nearby, checkout, hotel search and booking, social fan-out and feed, the assistant, the admin console\'s first page) …');
    const node = `"${process.execPath}"`;
    const ledgerOut = path.join(repoRoot, '.cache', 'bench-ledger.json');
    const ridesOut = path.join(repoRoot, '.cache', 'bench-rides.json');
    const placesOut = path.join(repoRoot, '.cache', 'bench-places.json');
    const memoryOut = path.join(repoRoot, '.cache', 'bench-memory.json');
    const checkoutOut = path.join(repoRoot, '.cache', 'bench-checkout.json');
    const bookingsOut = path.join(repoRoot, '.cache', 'bench-bookings.json');
    const socialOut = path.join(repoRoot, '.cache', 'bench-social.json');
    const assistantOut = path.join(repoRoot, '.cache', 'bench-assistant.json');
    const consoleOut = path.join(repoRoot, '.cache', 'bench-console.json');
    const only = process.env.BENCH_ONLY?.split(',');
    for (const file of [ledgerOut, ridesOut, placesOut, memoryOut, checkoutOut, bookingsOut, socialOut, assistantOut, consoleOut]) fs.rmSync(file, { force: true });
    // Checkout and bookings first: their transactions query (pending orders, held units), and the emulator's queries
    // slow down with every document it has stored (on 2026-11-29, after the others' writes, P13's two pending-order
    // queries took 304 ms of a 340 ms checkout), while their raw twins read by id.
    // P10 and P11 on an emulator of their own, for the same reason: a booking's search is four range queries and the
    // assignment's reads, its baseline one range query; last in the shared run (2026-12-01) the booking took 188 ms at
    // p50 against 47 ms on a fresh emulator, the query 88 against 26.
    const ridesWanted = only === undefined || only.some((id) => id === 'P10' || id === 'P11');
    if (ridesWanted)
      run(process.execPath, emulatorArgs('emulators:exec', CORE_EMULATORS, [`${node} scripts/bench/rides.mjs "${ridesOut}"`]), {
        env: { ...describeEnv(), RATE_LIMITS: DEV_RATE_LIMITS },
      });
    // The realtime measures (P3, P4, P6, chat) on an emulator of their own too: the hub's large fan-outs count the
    // recipients' device range, a query that slows with everything the emulator has stored (docs/benchmarks.md).
    const realtimeWanted = only === undefined || only.some((id) => ['P3', 'P4', 'P6', 'chat'].includes(id));
    if (realtimeWanted)
      run(process.execPath, emulatorArgs('emulators:exec', CORE_EMULATORS, [`${node} scripts/bench/realtime.mjs "${out}"`]), {
        // The bench signs in far more accounts from one address than a person would (P6 alone: 100).
        env: { ...describeEnv(), RATE_LIMITS: DEV_RATE_LIMITS },
      });
    else fs.writeFileSync(out, JSON.stringify({ P3: [] })); // as realtime.mjs writes it when none of its measures is wanted
    run(process.execPath, emulatorArgs('emulators:exec', CORE_EMULATORS, [`${node} scripts/bench/checkout.mjs "${checkoutOut}"; ${node} scripts/bench/bookings.mjs "${bookingsOut}"; ${node} scripts/bench/assistant.mjs "${assistantOut}"; ${node} scripts/bench/console.mjs "${consoleOut}"; ${node} scripts/bench/uploads.mjs "${uploadsOut}"; ${node} scripts/bench/ledger.mjs "${ledgerOut}"; ${node} scripts/bench/places.mjs "${placesOut}"; ${node} scripts/bench/social.mjs "${socialOut}"; ${node} scripts/bench/dispatch-memory.mjs "${memoryOut}"`]), {
      env: { ...describeEnv(), RATE_LIMITS: DEV_RATE_LIMITS },
    });
    const read = (file) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined);
    const realtime = read(out);
    const rides = read(ridesOut) ?? {};
    return realtime ? { ...realtime, P7: read(uploadsOut) ?? { error: 'the upload memory run wrote nothing' }, P9: read(ledgerOut)?.P9, P10: rides.P10, P11: rides.P11, P12: read(placesOut)?.P12, dispatchMemory: read(memoryOut)?.dispatchMemory, P13: read(checkoutOut)?.P13, P14: read(bookingsOut)?.P14, P15: read(socialOut)?.P15, P16: read(assistantOut)?.P16, P17: read(consoleOut)?.P17 } : undefined;
  };
  const { runBench } = await import('./bench/run.mjs');
  await runBench(measureRealtime);
}

async function openapi() {
  prepare();
  ensureDeps(webDir); // the typed client's generator
  mustRun(process.execPath, [path.join(repoRoot, 'scripts', 'openapi.cjs')]);
  mustRun(process.execPath, [path.join(repoRoot, 'scripts', 'docs.mjs')]); // the generated parts of docs/
  buildConsole(); // after the client: it carries the operations table just written
}

async function seedExport() {
  prepare();
  const env = describeEnv();
  const target = path.join(repoRoot, 'emulator-data');
  fs.rmSync(target, { recursive: true, force: true });
  log('seeding a fresh emulator and exporting it to emulator-data/ …');
  mustRun(
    process.execPath,
    [firebaseBin, 'emulators:exec', '--project', PROJECT_ID, '--only', 'firestore,auth', '--export-on-exit', target, `"${process.execPath}" scripts/seed.mjs`],
    { env },
  );
}

// One-shot maintenance commands, declared by the modules that own the data (`commands` of their definition) and
// by the platform (`platform:<command>`): `node scripts/stack.mjs module <module>:<command> [--project <id>]`; no
// name lists them. Idempotent. They target the running emulator (npm start) unless FIRESTORE_EMULATOR_HOST is set to
// another one; against a real project run them with GOOGLE_APPLICATION_CREDENTIALS and --project <id>. The exit
// status is not 0 when the command fails (wallet:ledger-check: also when the books do not balance).
function moduleCommand(name = commandName(), project = optionValue('--project')) {
  prepare();
  const env = { ...process.env };
  if (project) env.GCLOUD_PROJECT = project;
  else {
    env.FIRESTORE_EMULATOR_HOST ??= '127.0.0.1:8080';
    env.GCLOUD_PROJECT ??= PROJECT_ID;
  }
  if (name) log(`${name} in ${project ? `project ${project}` : `the emulator at ${env.FIRESTORE_EMULATOR_HOST}`} …`);
  const script = `
    const { COLLECTIONS, LISTENED_DOCUMENTS, MODULES } = require('./lib/modules/index.js');
    const { PLATFORM_COMMANDS, commandList, runCommand } = require('./lib/platform/core/module/maintenance.js');
    const { GEO_COMMANDS } = require('./lib/platform/kits/geo/geo.commands.js');
    const owners = [PLATFORM_COMMANDS, GEO_COMMANDS, ...MODULES];
    const name = process.argv[1];
    if (!name) {
      console.log('usage: npm run module -- <module>:<command> [--project <id>]');
      for (const c of commandList(owners)) console.log('  ' + c.name + ': ' + c.describe);
      process.exit(0);
    }
    runCommand(owners, name, { log: (m) => console.log('[superapp] ' + m), listened: LISTENED_DOCUMENTS, collections: COLLECTIONS })
      .then((code) => process.exit(code), (e) => { console.error('[superapp] ERROR: ' + e.message); process.exit(1); });`;
  mustRun(process.execPath, ['-e', script, ...(name ? [name] : [])], { cwd: functionsDir, env });
}

// The first argument after `module` that is neither --project nor its value.
function commandName() {
  return process.argv.slice(3).find((arg, i, args) => arg !== '--project' && args[i - 1] !== '--project');
}

function optionValue(flag) {
  const i = process.argv.indexOf(flag);
  return i > 0 ? process.argv[i + 1] : undefined;
}

// The former one-shot entries, kept as aliases (their npm scripts and project variables).
const backfillCapabilities = () => moduleCommand('driver:backfill-capabilities', process.env.BACKFILL_PROJECT);
const migrateRideRatings = () => moduleCommand('rides:migrate-ratings', process.env.BACKFILL_PROJECT);
const migrateListenedTimes = () => moduleCommand('platform:migrate-listened-times', process.env.BACKFILL_PROJECT);
const ledgerCheck = () => moduleCommand('wallet:ledger-check', process.env.LEDGER_PROJECT);

// npm run deploy:check [-- --project <id>]: builds, then checks what a deploy would get wrong (scripts/deploy-check.mjs).
function deployCheck() {
  prepare();
  const status = run(process.execPath, [path.join(repoRoot, 'scripts', 'deploy-check.mjs'), ...process.argv.slice(3)]);
  process.exit(status);
}

// The form checks (functions/.prettierrc.json, functions/eslint.config.mjs): one check each, as `npm test` counts them.
const FORM_TARGETS = ['src', 'test'];
const WEB_LINT_TARGETS = ['console', 'client', 'examples', 'scripts', 'eslint.config.mjs'];
// Prettier's layout also covers the web package's sources (with the functions' config: one layout); ESLint checks the
// web package with web/eslint.config.mjs.
const PRETTIER_TARGETS = ['--config', '.prettierrc.json', ...FORM_TARGETS.map((t) => `${t}/**/*.ts`), '../web/client/index.ts', '../web/console/**/*.{ts,tsx}', '../web/scripts/*.mjs', '../web/eslint.config.mjs'];
function checkForm() {
  const prettier = path.join(functionsDir, 'node_modules', 'prettier', 'bin', 'prettier.cjs');
  const eslint = path.join(functionsDir, 'node_modules', 'eslint', 'bin', 'eslint.js');
  log('format (prettier --check) …');
  const format = run(process.execPath, [prettier, '--check', '--log-level', 'warn', ...PRETTIER_TARGETS], { cwd: functionsDir });
  if (format !== 0) log('format: files above differ from prettier\'s layout; `npm run format` rewrites them');
  log('lint (eslint) …');
  const lintFunctions = run(process.execPath, [eslint, '--max-warnings', '0', ...FORM_TARGETS], { cwd: functionsDir });
  // The web package with its own config (the hooks rules), by the same ESLint.
  const lintWeb = run(process.execPath, [eslint, '--max-warnings', '0', ...WEB_LINT_TARGETS], { cwd: webDir });
  const lint = lintFunctions === 0 && lintWeb === 0 ? 0 : 1;
  return { passed: (format === 0) + (lint === 0), failed: (format !== 0) + (lint !== 0) };
}

// npm run lint: the form checks alone.
function lint() {
  ensureDeps(functionsDir);
  const result = checkForm();
  process.stdout.write(`${result.passed} passed, ${result.failed} failed\n`);
  process.exit(result.failed > 0 ? 1 : 0);
}

// npm run format: rewrites the layout prettier owns (then `npm run lint` passes its format check).
function format() {
  ensureDeps(functionsDir);
  mustRun(process.execPath, [path.join(functionsDir, 'node_modules', 'prettier', 'bin', 'prettier.cjs'), '--write', '--log-level', 'warn', ...PRETTIER_TARGETS], { cwd: functionsDir });
}

// npm run test:unit: the unit tier only (no Java, no emulators), after the same install and build.
function testUnit() {
  prepare({ typecheckTests: true });
  fs.mkdirSync(resultsDir, { recursive: true });
  const out = path.join(resultsDir, `unit-${process.pid}.json`);
  run('sh', ['-c', `"${process.execPath}" ${JEST_NODE_FLAGS} "${jestBin}" --config "${path.join(functionsDir, 'jest.config.js')}" --selectProjects unit --json --outputFile "${out}" ${process.argv.slice(3).map((p) => `"${p.replace(/"/g, '')}"`).join(' ')}`]);
  const result = readJestResults(out);
  if (result.crashed) log(`test runner did not finish: ${result.crashed}`);
  process.stdout.write(`${result.passed} passed, ${result.failed} failed\n`);
  process.exit(result.failed > 0 || result.passed === 0 ? 1 : 0);
}

// npm run test:files -- <pattern …>: the emulator test files whose paths match (jest path patterns), on fresh
// emulators with the test environment, for working on one area without the whole suite. Prints the same last line.
async function testFiles() {
  const patterns = process.argv.slice(3);
  if (patterns.length === 0) fail('usage: npm run test:files -- <test path pattern …> (e.g. rides wallet)');
  prepare({ web: true });
  fs.mkdirSync(resultsDir, { recursive: true });
  const out = path.join(resultsDir, `files-${process.pid}.json`);
  const serialOut = path.join(resultsDir, `files-${process.pid}-serial.json`);
  const sinks = await startSinks('test', { print: false });
  const env = { ...describeEnv(), ...stackEnv('test'), TEST_GEO_CELLS: path.join(resultsDir, `geo-cells-${process.pid}`) };
  const quoted = patterns.map((p) => `"${p.replace(/"/g, '')}"`).join(' ');
  const jest = (projects, file, workers) =>
    `${BEHIND_EMULATORS}"${process.execPath}" ${JEST_NODE_FLAGS} "${jestBin}" --config "${path.join(functionsDir, 'jest.config.js')}" --selectProjects ${projects} ${workers} --passWithNoTests --json --outputFile "${file}" ${quoted}`;
  // As in npm test: the matching serial files (whole-database facts) run alone, after the others.
  const script = `${jest('integration smoke rules', out, `--maxWorkers=${TEST_WORKERS}`)}; first=$?; ${jest('serial browser', serialOut, '--runInBand')}; second=$?; [ $first -eq 0 ] && [ $second -eq 0 ]`;
  try {
    run(process.execPath, emulatorArgs('emulators:exec', CORE_EMULATORS, [script]), { env });
  } finally {
    sinks?.kill();
    fs.rmSync(env.TEST_GEO_CELLS, { recursive: true, force: true });
  }
  const [parallel, serial] = [readJestResults(out), readJestResults(serialOut)];
  for (const crash of [parallel.crashed, serial.crashed].filter(Boolean)) log(`test runner did not finish: ${crash}`);
  const result = { passed: parallel.passed + serial.passed, failed: parallel.failed + serial.failed };
  // These files' durations join the record the sequencer orders by (the longest first).
  recordDurations(fileDurations([out, serialOut]));
  process.stdout.write(`${result.passed} passed, ${result.failed} failed\n`);
  process.exit(result.failed > 0 || result.passed === 0 ? 1 : 0);
}

// npm run example -- <name> [args …]: runs web/examples/<name>.ts (bundled by esbuild for Node) against `npm start`.
async function example() {
  const [name, ...args] = process.argv.slice(3);
  const available = fs.readdirSync(path.join(webDir, 'examples')).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3));
  if (!available.includes(name)) fail(`usage: npm run example -- <${available.join('|')}> [args …]`);
  ensureDeps(webDir);
  // The example's own files bundled, its packages loaded from web/node_modules as installed (a bundled Firestore SDK
  // loses its gRPC files): so the output sits under web/node_modules.
  const out = path.join(webDir, 'node_modules', '.cache', 'superapp-examples', `${name}.mjs`);
  const { build: bundle } = await import(path.join(webDir, 'node_modules', 'esbuild', 'lib', 'main.js'));
  await bundle({ entryPoints: [path.join(webDir, 'examples', `${name}.ts`)], bundle: true, packages: 'external', platform: 'node', format: 'esm', outfile: out, logLevel: 'warning' });
  process.exit(run(process.execPath, [out, ...args]));
}

const commands = { start, test, lint, format, example, 'build-console': buildConsoleCommand, 'test-unit': testUnit, 'test-files': testFiles, bench, openapi, 'seed-export': seedExport, 'backfill-capabilities': backfillCapabilities, 'migrate-ride-ratings': migrateRideRatings, 'migrate-listened-times': migrateListenedTimes, 'ledger-check': ledgerCheck, 'deploy-check': deployCheck, module: moduleCommand };
const name = process.argv[2];
if (!commands[name]) fail(`usage: node scripts/stack.mjs <${Object.keys(commands).join('|')}>`);
await ensureRuntimeNode({ install: () => ensureDeps(repoRoot), log, fail });
await commands[name]();
