#!/usr/bin/env node
// Builds the admin console into openapi/admin/ (Hosting's public folder, served at /admin): one minified module with
// a content hash in its name (cached for a year), one stylesheet, and index.html (never cached). Fails when the
// first page's JavaScript and CSS pass CONSOLE_BUDGET_GZIP_BYTES gzipped. `--json=<file>` writes the sizes.
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

export const CONSOLE_BUDGET_GZIP_BYTES = 300 * 1024;
const webDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const srcDir = path.join(webDir, 'console');
const outDir = path.join(webDir, '..', 'openapi', 'admin');

const started = Date.now();
const result = await esbuild.build({
  entryPoints: [path.join(srcDir, 'main.tsx')],
  bundle: true,
  write: false,
  format: 'esm',
  target: ['es2022', 'chrome110', 'safari16', 'firefox110'],
  minify: true,
  sourcemap: false,
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
});
const js = result.outputFiles[0].contents;
const css = fs.readFileSync(path.join(srcDir, 'style.css'));
const hashed = (bytes, ext) => `app-${createHash('sha256').update(bytes).digest('hex').slice(0, 12)}.${ext}`;
const jsName = hashed(js, 'js');
const cssName = hashed(css, 'css');
const html = fs.readFileSync(path.join(srcDir, 'index.html'), 'utf8').replace('%JS%', jsName).replace('%CSS%', cssName);

fs.rmSync(outDir, { recursive: true, force: true });
fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(path.join(outDir, jsName), js);
fs.writeFileSync(path.join(outDir, cssName), css);
fs.writeFileSync(path.join(outDir, 'index.html'), html);

const sizes = { js: js.length, css: css.length, html: html.length };
const gzip = { js: gzipSync(js).length, css: gzipSync(css).length, html: gzipSync(html).length };
const firstPageGzip = gzip.js + gzip.css + gzip.html;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
process.stdout.write(
  `[superapp] admin console built in ${Date.now() - started} ms: openapi/admin/${jsName} ${kb(sizes.js)} (${kb(gzip.js)} gzip), ${cssName} ${kb(sizes.css)} (${kb(gzip.css)} gzip); first page ${kb(firstPageGzip)} gzip (budget ${kb(CONSOLE_BUDGET_GZIP_BYTES)})\n`,
);
const jsonArg = process.argv.find((a) => a.startsWith('--json='));
if (jsonArg)
  fs.writeFileSync(
    jsonArg.slice(7),
    JSON.stringify({ files: { js: jsName, css: cssName }, sizes, gzip, firstPageGzip, budget: CONSOLE_BUDGET_GZIP_BYTES }, null, 2),
  );
if (firstPageGzip > CONSOLE_BUDGET_GZIP_BYTES) {
  process.stderr.write(`admin console: the first page is ${kb(firstPageGzip)} gzipped, over its ${kb(CONSOLE_BUDGET_GZIP_BYTES)} budget\n`);
  process.exit(1);
}
