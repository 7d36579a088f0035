#!/usr/bin/env node
// Makes a package-lock.json that `npm ci` accepts on machines whose registry mirror lacks other platforms'
// optional binaries (e.g. jest's @unrs/resolver-binding-darwin-*: 404 here). npm then leaves those packages
// out of the lock, and `npm ci` refuses it ("Missing: … from lock file"). Each missing optional dependency
// gets an entry with its version and `optional: true`: npm ci skips it where it does not fit the platform
// or cannot be fetched, exactly as it would with a complete entry.
//   node scripts/lock-complete.mjs [--check] <package-lock.json>…   (--check: report, write nothing, exit 1)
import fs from 'node:fs';

const args = process.argv.slice(2);
const check = args.includes('--check');
const files = args.filter((a) => a !== '--check');
if (files.length === 0) {
  console.error('usage: node scripts/lock-complete.mjs [--check] <package-lock.json>…');
  process.exit(2);
}

let missingTotal = 0;
for (const file of files) {
  const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
  const packages = lock.packages ?? {};
  const missing = [];
  for (const [location, entry] of Object.entries(packages)) {
    for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
      // npm resolves from the nearest node_modules upwards; the hoisted copy counts.
      const nested = location ? `${location}/node_modules/${name}` : `node_modules/${name}`;
      if (packages[nested] || packages[`node_modules/${name}`]) continue;
      if (missing.some((m) => m.name === name)) continue;
      missing.push({ name, spec });
    }
  }
  missingTotal += missing.length;
  if (missing.length === 0) {
    console.log(`${file}: complete`);
    continue;
  }
  if (check) {
    console.error(`${file}: ${missing.length} optional dependencies have no lock entry (${missing.map((m) => m.name).join(', ')}); run \`node scripts/lock-complete.mjs ${file}\``);
    continue;
  }
  for (const { name, spec } of missing) packages[`node_modules/${name}`] = { version: spec, optional: true };
  lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
  fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(`${file}: added ${missing.length} optional entries`);
}
if (check && missingTotal > 0) process.exit(1);
