import fs from 'node:fs';
import path from 'node:path';
import type { SourceMap } from 'node:module';

// Stack traces of the deployed bundle (dist/*.js, whitespace-minified) point at `runtime.js:1:204518`. Node's
// --enable-source-maps would fix that for every module it loads, at ~25 ms per cold start; instead the few
// traces we log are mapped here, with the .map files shipped beside the bundle, read on the first error.

const maps = new Map<string, SourceMap | null>();

function mapOf(file: string): SourceMap | null {
  if (maps.has(file)) return maps.get(file) ?? null;
  let map: SourceMap | null = null;
  try {
    const { SourceMap: SourceMapClass } = require('node:module') as typeof import('node:module');
    map = new SourceMapClass(JSON.parse(fs.readFileSync(`${file}.map`, 'utf8')));
  } catch {
    map = null; // no map (a dependency, a test double): the frame stays as it is
  }
  maps.set(file, map);
  return map;
}

// `at fn (/abs/file.js:12:34)` or `at /abs/file.js:12:34`
const FRAME = /^(\s*at (?:.*? \()?)(\/[^():]+\.js):(\d+):(\d+)(\)?)$/;

/** The trace with each frame of a file that has a source map rewritten to its source file, line and column. */
export function sourceMappedStack(stack: string | undefined): string | undefined {
  if (!stack) return stack;
  return stack
    .split('\n')
    .map((line) => {
      const frame = FRAME.exec(line);
      if (!frame || frame[2].includes(`${path.sep}node_modules${path.sep}`)) return line;
      const map = mapOf(frame[2]);
      const entry = map?.findEntry(Number(frame[3]) - 1, Number(frame[4]) - 1) as
        { originalSource?: string; originalLine?: number; originalColumn?: number } | undefined;
      if (!entry?.originalSource || entry.originalLine === undefined) return line;
      const source = path.relative(process.cwd(), path.resolve(path.dirname(frame[2]), entry.originalSource.replace(/^file:\/\//, '')));
      return `${frame[1]}${source}:${entry.originalLine + 1}:${(entry.originalColumn ?? 0) + 1}${frame[5]}`;
    })
    .join('\n');
}
