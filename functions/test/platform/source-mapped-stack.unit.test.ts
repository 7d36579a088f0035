import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { sourceMappedStack } from '../../src/platform/core/logging/stack';

// A bundle built the way bundle.mjs builds dist/ (whitespace-minified, linked map): a trace through it maps back.
describe('sourceMappedStack', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stack-'));
  const source = path.join(dir, 'thrower.ts');
  const out = path.join(dir, 'thrower.js');
  fs.writeFileSync(
    source,
    ['// line 1', 'export function deep(): never {', '  throw new Error("boom");', '}', 'export function outer(): never {', '  return deep();', '}', ''].join(
      '\n',
    ),
  );
  buildSync({
    entryPoints: [source],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile: out,
    sourcemap: 'linked',
    minifyWhitespace: true,
    logLevel: 'silent',
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('rewrites frames of a file with a map to the source line and leaves the others', () => {
    // A plain node process: jest maps the traces of what it loads itself.
    const probe = `try { require(${JSON.stringify(out)}).outer(); } catch (err) { process.stdout.write(err.stack); }`;
    const stack = execFileSync(process.execPath, ['-e', probe], { encoding: 'utf8' });
    expect(stack).toMatch(/thrower\.js:1:\d+/); // the raw trace points into the one-line bundle
    const mapped = sourceMappedStack(stack) ?? '';
    expect(mapped).toContain('thrower.ts:3:');
    expect(mapped).toContain('thrower.ts:6:');
    expect(mapped).not.toMatch(/thrower\.js:/);
    // frames of node's own files are untouched
    expect(mapped.split('\n').filter((l) => l.includes('node:internal')).length).toBe(stack.split('\n').filter((l) => l.includes('node:internal')).length);
  });

  it('keeps a trace without mapped frames as it is', () => {
    const raw = 'Error: x\n    at Object.<anonymous> (/nowhere/file.js:1:2)\n    at node:internal/main:3:4';
    expect(sourceMappedStack(raw)).toBe(raw);
    expect(sourceMappedStack(undefined)).toBeUndefined();
  });
});
