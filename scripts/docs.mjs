#!/usr/bin/env node
// Writes the generated parts of docs/ (module table, function list, configuration, kit users) from the built code
// (functions/lib: `npm run build` first; `npm run openapi` builds and runs this). `--check` writes nothing and exits 1
// when a file is stale. The unit test docs-generated renders the same from functions/src.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { renderDocs, repoRoot } = require('./lib/docs-render.cjs');

const lib = path.join(repoRoot, 'functions', 'lib');
if (!fs.existsSync(path.join(lib, 'modules', 'index.js'))) {
  process.stderr.write('[superapp] functions/lib is missing: run `npm run build` first (or `npm run openapi`, which builds)\n');
  process.exit(2);
}
const check = process.argv.includes('--check');
let stale = 0;
for (const [file, text] of Object.entries(renderDocs(lib))) {
  const target = path.join(repoRoot, file);
  const same = fs.readFileSync(target, 'utf8') === text;
  if (!same) stale += 1;
  if (!check && !same) fs.writeFileSync(target, text);
  process.stdout.write(`[superapp] ${file} ${same ? 'unchanged' : check ? 'STALE' : 'written'}\n`);
}
process.exit(check && stale > 0 ? 1 : 0);
