// The TypeScript transform of the test run: esbuild (about 2 ms a file), not ts-jest (about 10 ms a file), since every
// jest worker of a fresh checkout transforms most of src and test once (a cold cache). Type errors are the type-check
// step's job (`npm test` runs tsc over src and test first), so nothing is lost. Two things ts-jest does that esbuild
// does not, kept:
// - a file that calls `jest.mock(` needs the call hoisted above its imports: such files go through ts-jest;
// - modules' exports must stay redefinable for `jest.spyOn(module, 'fn')`: esbuild's export getters are made
//   configurable (a helper text esbuild no longer emits fails the transform loudly rather than silently).
const crypto = require('node:crypto');
const path = require('node:path');
const esbuild = require('esbuild');
const { TsJestTransformer } = require('ts-jest');

const tsconfig = path.join(__dirname, '..', '..', 'tsconfig.json');
const tsJest = new TsJestTransformer({ tsconfig });
// The cache key covers esbuild's version and this file itself: a change to either transforms everything again.
const VERSION = `esbuild ${require('esbuild/package.json').version}; ${crypto.createHash('sha1').update(require('node:fs').readFileSync(__filename)).digest('hex')}`;
// Strict mode, as TypeScript emits it under `strict` (esbuild adds "use strict" only when told).
const TSCONFIG_RAW = { compilerOptions: { strict: true, useDefineForClassFields: true } };
const needsHoisting = (source) => source.includes('jest.mock(');

// esbuild's helpers that define a module's exports as getters (`__export`, `__copyProps`; their variables may be
// renamed, as `name2`): each gets `configurable: true`.
const EXPORT_GETTER = /(var __export = [^]*?__defProp\(\w+, \w+, \{ get: \w+\[\w+\], enumerable: true) \}\)/;
const COPY_GETTER = /(var __copyProps = [^]*?__defProp\(\w+, \w+, \{ get: \(\) => \w+\[\w+\], enumerable: [^}]*?) \}\)/;

function configurableExports(code, file) {
  let out = code;
  for (const [helper, getter] of [
    ['var __export = ', EXPORT_GETTER],
    ['var __copyProps = ', COPY_GETTER],
  ]) {
    if (!out.includes(helper)) continue;
    if (!getter.test(out)) throw new Error(`${file}: esbuild's ${helper.slice(4, -3)} helper changed; update test/helpers/transform.js`);
    out = out.replace(getter, '$1, configurable: true })');
  }
  return out;
}

module.exports = {
  getCacheKey(source, file, options) {
    if (needsHoisting(source)) return tsJest.getCacheKey(source, file, options);
    return crypto
      .createHash('sha1')
      .update(VERSION)
      .update(options?.instrument ? '\0instrument' : '\0')
      .update(file)
      .update('\0')
      .update(source)
      .digest('hex');
  },
  process(source, file, options) {
    if (needsHoisting(source)) return tsJest.process(source, file, options);
    const { code } = esbuild.transformSync(source, { loader: 'ts', format: 'cjs', target: 'es2022', sourcemap: 'inline', sourcefile: file, tsconfigRaw: TSCONFIG_RAW });
    return { code: configurableExports(code, file) };
  },
};
