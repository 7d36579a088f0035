// The deployed code: two esbuild bundles in dist/ (package.json `main`), built from src/ by `npm run build`.
//
//   dist/index.js    what every instance loads first: the function definitions, the configuration check and the
//                    module definitions (names, queues, trigger paths). Kept small: it is the cold start.
//   dist/runtime.js  everything the code loads lazily (`require()` inside a function: the Express app, routes,
//                    trigger and task handlers, mail and SMS senders), in one bundle so that they share one copy
//                    of every module's state. index.js reaches it through `load(id)`, on first use.
//
// The split follows the codebase's rule that heavy code is reached by `require()` at the point of use and light
// definitions by `import`: each relative `require()` seen while bundling index.js becomes `runtime.load('<src path>')`.
// External: firebase-admin and firebase-functions (their own lazy loading and gRPC), packages that read their own
// files at run time (swagger-ui-express, the bcryptjs the password workers require by path) or are ESM-only
// (file-type), and the Google clients loaded on first use.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const functionsDir = path.dirname(fileURLToPath(import.meta.url));
const srcDir = path.join(functionsDir, 'src');
const outDir = path.join(functionsDir, 'dist');

const EXTERNAL = ['firebase-admin', 'firebase-functions', '@google-cloud/storage', 'google-auth-library', 'swagger-ui-express', 'bcryptjs', 'file-type'];
const external = EXTERNAL.flatMap((name) => [name, `${name}/*`]);

// Tools (tests in-process, benchmarks) load these from the runtime bundle by the same ids.
const TOOLING_IDS = ['app', 'modules/index', 'platform/core/config/config', 'platform/core/logging/logger', 'platform/core/http/route', 'modules/auth/passwords', 'platform/core/deploy/query-log', 'platform/core/deploy/v8-tuning'];

// zod's namespace (`z`) keeps all of zod in a bundle. Three parts the code never calls are left out: the
// locales but English (zod installs English itself), `z.fromJSONSchema` (its module builds a copy of the whole
// schema namespace at load) and the `z.compile` fast-path compiler (opt-in, unused). Their stubs throw if called.
const ZOD_STUBS = [
  { filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/, contents: 'export { default as en } from "./en.js";' },
  { filter: /[\\/]zod[\\/]v4[\\/]classic[\\/]from-json-schema\.js$/, contents: leftOut(['fromJSONSchema']) },
  {
    filter: /[\\/]zod[\\/]v4[\\/]core[\\/]compile\.js$/,
    contents: `export const INVALID = Symbol.for("zod.compile.invalid");
export class ZodCompileAsyncError extends Error {}
export class ZodCompileUnsupportedError extends Error {}
${leftOut(['compile', 'withParser', 'compileFn'])}`,
  },
];
function leftOut(names) {
  return names.map((name) => `export function ${name}() { throw new Error("zod's ${name} is left out of the functions bundle (bundle.mjs)"); }`).join('\n');
}
export const trimmedZod = {
  name: 'trimmed-zod',
  setup(build) {
    for (const stub of ZOD_STUBS) build.onLoad({ filter: stub.filter }, () => ({ contents: stub.contents, loader: 'js' }));
  },
};

const idOf = (file) => path.relative(srcDir, file).replace(/\\/g, '/').replace(/\.ts$/, '');

async function resolveSource(build, args) {
  const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: { inner: true } });
  if (resolved.errors.length > 0) throw new Error(resolved.errors[0].text);
  return resolved.path;
}

// index.js: every relative require() (lazy by convention) goes to the runtime bundle, except the module list,
// which discovery and the task and trigger instances read at load.
function lazyToRuntime(lazyIds) {
  return {
    name: 'lazy-to-runtime',
    setup(build) {
      build.onResolve({ filter: /^\./ }, async (args) => {
        if (args.namespace === 'runtime-proxy') return { path: './runtime.js', external: true };
        if (args.kind !== 'require-call' || args.pluginData?.inner) return undefined;
        const file = await resolveSource(build, args);
        const id = idOf(file);
        if (id === 'modules/index') return undefined;
        lazyIds.add(id);
        return { path: id, namespace: 'runtime-proxy' };
      });
      build.onLoad({ filter: /.*/, namespace: 'runtime-proxy' }, (args) => ({
        contents: `module.exports = require('./runtime.js').load(${JSON.stringify(args.path)});`,
        loader: 'js',
      }));
    },
  };
}

// Module definitions import names, not schemas: zod's classic API in dist/index.js would add ~9 ms to every cold
// start (zod/mini, which the configuration and task queues use, costs ~1 ms). Fails the build with the import
// chain that brought it in.
const CLASSIC_ZOD = /node_modules[\\/]zod[\\/](index\.js|v4[\\/]classic[\\/])/;
function assertLightEntry(metafile) {
  const importers = new Map();
  for (const [file, input] of Object.entries(metafile.inputs)) {
    for (const imported of input.imports) if (!importers.has(imported.path)) importers.set(imported.path, file);
  }
  const heavy = Object.keys(metafile.inputs).find((file) => CLASSIC_ZOD.test(file));
  if (!heavy) return;
  const chain = [heavy];
  while (importers.has(chain.at(-1)) && chain.length < 30) chain.push(importers.get(chain.at(-1)));
  throw new Error(`dist/index.js would load zod's classic API (a cold-start cost): ${chain.reverse().join(' → ')}\n` +
    'Import names from light files (e.g. <module>.collections.ts) in module definitions, or use zod/mini there.');
}

function runtimeEntry(ids) {
  const table = ids.map((id) => `  ${JSON.stringify(id)}: () => require(${JSON.stringify(`./${id}`)}),`).join('\n');
  return `// Generated by bundle.mjs: the lazily loaded modules of dist/index.js and the tools' entry points.
const modules = {
${table}
};
const loaded = new Map();
exports.load = (id) => {
  const get = modules[id];
  if (!get) throw new Error('runtime bundle has no module ' + id);
  if (!loaded.has(id)) loaded.set(id, get());
  return loaded.get(id);
};
exports.ids = Object.keys(modules);
`;
}

const common = {
  absWorkingDir: functionsDir,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  external,
  sourcemap: 'linked',
  sourcesContent: false,
  legalComments: 'none',
  // Less text to parse at cold start; names are kept, so stack traces stay readable without the map.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  metafile: true,
};

export async function bundle({ quiet = false } = {}) {
  const started = Date.now();
  fs.rmSync(outDir, { recursive: true, force: true });
  const lazyIds = new Set();
  const index = await esbuild.build({
    ...common,
    entryPoints: { index: path.join(srcDir, 'index.ts') },
    outdir: outDir,
    plugins: [trimmedZod, lazyToRuntime(lazyIds)],
  });
  assertLightEntry(index.metafile);
  const ids = [...new Set([...lazyIds, ...TOOLING_IDS])].sort();
  const runtime = await esbuild.build({
    ...common,
    stdin: { contents: runtimeEntry(ids), resolveDir: srcDir, sourcefile: 'runtime-entry.js', loader: 'js' },
    outfile: path.join(outDir, 'runtime.js'),
    plugins: [trimmedZod],
  });
  const sizes = Object.fromEntries(
    [index, runtime].flatMap((r) => Object.entries(r.metafile.outputs).filter(([file]) => file.endsWith('.js')).map(([file, out]) => [path.basename(file), out.bytes])),
  );
  // `BUNDLE_META=1 npm run build` keeps esbuild's input map of each bundle (what weighs what).
  if (process.env.BUNDLE_META) {
    fs.writeFileSync(path.join(outDir, 'index.meta.json'), JSON.stringify(index.metafile));
    fs.writeFileSync(path.join(outDir, 'runtime.meta.json'), JSON.stringify(runtime.metafile));
  }
  if (!quiet) {
    const kib = (n) => `${Math.round(n / 1024)} KiB`;
    console.log(`bundle: dist/index.js ${kib(sizes['index.js'])}, dist/runtime.js ${kib(sizes['runtime.js'])} (${ids.length} lazy modules) in ${Date.now() - started} ms`);
  }
  return { sizes, lazyIds: ids };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  bundle().catch((err) => {
    console.error(err.message ?? err);
    process.exit(1);
  });
}
