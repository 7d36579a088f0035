// Finds Java >= 21 and the Firestore emulator jar so firebase-tools can run offline
// (see ../shared/guide/environment.md). Returns the env to pass to `firebase emulators:*`.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { aptInstall, repoRoot, log, fail } from './util.mjs';

const MIN_JAVA = 21;
const FIRESTORE_MAIN_CLASS = 'com.google.cloud.datastore.emulator.firestore.CloudFirestore';

function javaMajor(javaBin) {
  const out = spawnSync(javaBin, ['-version'], { encoding: 'utf8' });
  if (out.error) return 0;
  const m = /version "(\d+)(?:\.(\d+))?/.exec(`${out.stderr}${out.stdout}`);
  if (!m) return 0;
  // Java 8 reports "1.8": the major is the second number.
  return m[1] === '1' ? Number(m[2]) : Number(m[1]);
}

function jvmCandidates() {
  const found = [];
  if (process.env.JAVA_HOME) found.push(process.env.JAVA_HOME);
  const dirs = new Set(['/usr/lib/jvm']);
  if (process.platform === 'darwin') {
    // /usr/bin/java on a Mac without a JDK only opens an "install Java" dialog: java_home names a real JDK >= 21.
    const res = spawnSync('/usr/libexec/java_home', ['-v', `${MIN_JAVA}+`], { encoding: 'utf8' });
    if (res.status === 0 && res.stdout.trim()) found.push(res.stdout.trim());
  } else {
    try {
      const java = execFileSync('sh', ['-c', 'command -v java'], { encoding: 'utf8' }).trim();
      if (java) dirs.add(path.dirname(path.dirname(path.dirname(fs.realpathSync(java)))));
    } catch {
      // no java on PATH: the JVM folder may still hold one
    }
  }
  for (const dir of dirs) {
    if (!fs.existsSync(dir)) continue;
    for (const name of fs.readdirSync(dir)) found.push(path.join(dir, name));
  }
  // macOS keeps JDKs as bundles: /Library/Java/JavaVirtualMachines/<jdk>/Contents/Home.
  const macJvms = '/Library/Java/JavaVirtualMachines';
  if (fs.existsSync(macJvms)) for (const name of fs.readdirSync(macJvms)) found.push(path.join(macJvms, name, 'Contents', 'Home'));
  return [...new Set(found)];
}

export function findJava() {
  // JAVA_HOME wins when new enough (the developer chose it); otherwise the newest JDK found.
  const envHome = process.env.JAVA_HOME;
  const envMajor = envHome ? javaMajor(path.join(envHome, 'bin', 'java')) : 0;
  let best = envMajor >= MIN_JAVA ? { home: envHome, major: envMajor } : null;
  for (const home of best ? [] : jvmCandidates()) {
    const bin = path.join(home, 'bin', 'java');
    if (!fs.existsSync(bin)) continue;
    const major = javaMajor(bin);
    if (major >= MIN_JAVA && (!best || major > best.major)) best = { home: fs.realpathSync(home), major };
  }
  if (!best) {
    fail(
      `firebase-tools 15 needs Java ${MIN_JAVA} or newer and none was found (looked at JAVA_HOME and ${[...new Set(jvmCandidates().map((p) => path.dirname(p)))].join(', ')}).\n` +
        '  Install one, then run the command again:\n' +
        '  - Debian/Ubuntu/WSL: `sudo apt-get install -y openjdk-21-jre-headless` (or temurin-21/25)\n' +
        '  - macOS: `brew install openjdk@21`, then set JAVA_HOME=$(brew --prefix openjdk@21)\n' +
        '  - or set JAVA_HOME to any JDK >= 21',
    );
  }
  return best;
}

function firebaseCacheHasFirestoreJar() {
  const dir = path.join(process.env.HOME ?? '', '.cache', 'firebase', 'emulators');
  return fs.existsSync(dir) && fs.readdirSync(dir).some((f) => /^cloud-firestore-emulator-v[\d.]+\.jar$/.test(f));
}

function gcloudSdkRoot() {
  try {
    return execFileSync('gcloud', ['info', '--format=value(installation.sdk_root)'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return fs.existsSync('/usr/lib/google-cloud-sdk') ? '/usr/lib/google-cloud-sdk' : '';
  }
}

function locateFirestoreJar() {
  const root = gcloudSdkRoot();
  const jar = root && path.join(root, 'platform', 'cloud-firestore-emulator', 'cloud-firestore-emulator.jar');
  return jar && fs.existsSync(jar) ? jar : '';
}

const firebaseBin = path.join(repoRoot, 'node_modules', 'firebase-tools', 'lib', 'bin', 'firebase.js');

// firebase-tools' own download into its cache (what `firebase emulators:start` does on a machine with internet).
export function firebaseToolsDownload(what) {
  log(`downloading the ${what} emulator with firebase-tools (\`firebase setup:emulators:${what}\`) …`);
  const res = spawnSync(process.execPath, [firebaseBin, `setup:emulators:${what}`], { cwd: repoRoot, encoding: 'utf8', timeout: 300_000 });
  if (res.status === 0) return true;
  const why = res.error?.code === 'ETIMEDOUT' ? 'timed out after 5 min' : (`${res.stderr ?? ''}${res.stdout ?? ''}`.split('\n').filter((l) => /error/i.test(l)).slice(-1)[0] ?? `exit ${res.status}`);
  log(`  could not: ${why.trim()}`);
  return false;
}

// The ways to get the Firestore emulator, in order: firebase-tools' cache, FIRESTORE_EMULATOR_BINARY_PATH, a gcloud
// SDK or Debian package jar (offline machines), firebase-tools' download (online), apt-get (announced).
function firestoreEmulator(javaHome) {
  if (firebaseCacheHasFirestoreJar()) return { source: 'firebase-tools cache' };
  const override = process.env.FIRESTORE_EMULATOR_BINARY_PATH;
  if (override && fs.existsSync(override)) return { source: override, binary: override };
  let jar = locateFirestoreJar();
  if (!jar && firebaseToolsDownload('firestore') && firebaseCacheHasFirestoreJar()) return { source: 'firebase-tools cache (downloaded now)' };
  // The Debian package of Google Cloud's apt repository (what machines like the CI image carry).
  if (!jar && aptInstall('google-cloud-cli-firestore-emulator') === 'installed') jar = locateFirestoreJar();
  if (!jar) {
    fail(
      'The Firestore emulator was not found, and firebase-tools could not download it (offline?). Any one of these works:\n' +
        '  - online: `npx firebase setup:emulators:firestore` (firebase-tools keeps it in ~/.cache/firebase/emulators)\n' +
        '  - with the gcloud CLI: `gcloud components install cloud-firestore-emulator`\n' +
        '  - Debian/Ubuntu with Google Cloud\'s apt repository: `sudo apt-get install -y google-cloud-cli-firestore-emulator`\n' +
        '  - any runnable emulator jar: set FIRESTORE_EMULATOR_BINARY_PATH to it',
    );
  }
  return { source: jar, binary: ensureLauncherJar(javaHome, jar) };
}

// The Debian jar has no Main-Class; a manifest-only launcher jar points java at it.
function ensureLauncherJar(javaHome, firestoreJar) {
  const cacheDir = path.join(repoRoot, '.cache', 'emulators');
  const launcher = path.join(cacheDir, 'firestore-launcher.jar');
  const manifestText = `Main-Class: ${FIRESTORE_MAIN_CLASS}\nClass-Path: file:${firestoreJar}\n`;
  const manifestFile = path.join(cacheDir, 'manifest.txt');
  if (fs.existsSync(launcher) && fs.existsSync(manifestFile) && fs.readFileSync(manifestFile, 'utf8') === manifestText) {
    return launcher;
  }
  fs.mkdirSync(cacheDir, { recursive: true });
  fs.writeFileSync(manifestFile, manifestText);
  fs.rmSync(launcher, { force: true });
  const jarTool = path.join(javaHome, 'bin', 'jar');
  const res = spawnSync(jarTool, ['cfm', launcher, manifestFile], { encoding: 'utf8' });
  if (res.status !== 0) {
    // A JRE has no `jar` tool: write the one-entry zip ourselves.
    writeManifestOnlyJar(launcher, manifestText);
  }
  return launcher;
}

// Minimal stored (uncompressed) zip with META-INF/MANIFEST.MF.
function writeManifestOnlyJar(file, manifestText) {
  const name = Buffer.from('META-INF/MANIFEST.MF');
  const data = Buffer.from(`Manifest-Version: 1.0\n${manifestText}`);
  const crc = crc32(data);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(10, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(10, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(name.length, 28);
  const centralOffset = local.length + name.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + name.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  fs.writeFileSync(file, Buffer.concat([local, name, data, central, name, end]));
}

function crc32(buf) {
  let crc = ~0;
  for (const byte of buf) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

// What the API needs, all runnable offline; tests and the bench run on exactly these.
// tasks: the Cloud Tasks emulator runs task-queue functions (the call ring timeout, queued mail).
export const CORE_EMULATORS = ['functions', 'firestore', 'auth', 'hosting', 'tasks'];

// Emulators whose jars exist here; Storage needs a download so it only joins when cached.
export function runnableEmulators() {
  const list = [...CORE_EMULATORS];
  const dir = path.join(process.env.HOME ?? '', '.cache', 'firebase', 'emulators');
  if (fs.existsSync(dir) && fs.readdirSync(dir).some((f) => f.startsWith('cloud-storage-rules-runtime'))) {
    list.push('storage');
  }
  return list;
}

const FUNCTIONS_PARALLEL_DEFAULT = 8;

export function emulatorEnv() {
  const java = findJava();
  const env = {
    ...process.env,
    JAVA_HOME: java.home,
    PATH: `${path.join(java.home, 'bin')}${path.delimiter}${process.env.PATH}`,
    // The Functions emulator runs one request per worker process and never reaps idle workers: at its
    // default of 50 parallel, a burst of requests left ~40 workers (5 GB) behind. Excess work queues instead.
    FUNCTIONS_EMULATOR_PARALLEL: process.env.FUNCTIONS_EMULATOR_PARALLEL ?? String(FUNCTIONS_PARALLEL_DEFAULT),
  };
  const firestore = firestoreEmulator(java.home);
  if (firestore.binary) env.FIRESTORE_EMULATOR_BINARY_PATH = firestore.binary;
  else delete env.FIRESTORE_EMULATOR_BINARY_PATH;
  return { env, java, firestore: firestore.source };
}

// The Emulator UI (http://127.0.0.1:4000), on wherever firebase-tools has it or can fetch it. Returns whether it is.
export function emulatorUiAvailable() {
  const dir = path.join(process.env.HOME ?? '', '.cache', 'firebase', 'emulators');
  const cached = () => fs.existsSync(dir) && fs.readdirSync(dir).some((f) => /^ui-v[\w.]+$/.test(f) && fs.existsSync(path.join(dir, f, 'server', 'server.mjs')));
  return cached() || (firebaseToolsDownload('ui') && cached());
}
