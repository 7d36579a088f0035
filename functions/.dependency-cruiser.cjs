// Module boundaries, checked by `npm test` (test/platform/module-boundaries.unit.test.ts); alone:
// `cd functions && npx depcruise src --config .dependency-cruiser.cjs`.
// A module is a folder of src/modules; others reach it through its public face (index.ts) only, and only when
// its definition (`src/modules/<m>/<m>.module.ts`) names them in `uses` (an acyclic graph: no module uses one
// that uses it). src/modules/index.ts (the list of module definitions) is the composition root. This file cannot
// import TypeScript, so it reads the one-line `uses: [...]` of each definition; the unit test checks the result
// against the loaded definitions.
const fs = require('node:fs');
const path = require('node:path');

const modulesDir = path.join(__dirname, 'src', 'modules');
const USES = Object.fromEntries(
  fs
    .readdirSync(modulesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap(({ name }) => {
      const file = path.join(modulesDir, name, `${name}.module.ts`);
      if (!fs.existsSync(file)) return [];
      const line = /^\s*uses: \[([^\]]*)\],?$/m.exec(fs.readFileSync(file, 'utf8'));
      if (!line) throw new Error(`${file}: no one-line \`uses: [...]\``);
      return [[name, [...line[1].matchAll(/'([a-z0-9-]+)'/g)].map((m) => m[1])]];
    }),
);
const MODULE_NAMES = Object.keys(USES);
// The kits platform/core may load (see the rule `core-below-vertical-kits`).
const CORE_KITS = ['firestore', 'time', 'text', 'ids', 'tasks', 'idempotency', 'i18n', 'memo', 'counters'];

const layerRules = MODULE_NAMES.map((module) => {
  const allowed = [module, ...USES[module]];
  return {
    name: 'layering',
    comment: `${module} may use only the modules its definition names in \`uses\`: ${USES[module].join(', ') || 'none'}`,
    severity: 'error',
    from: { path: `^src/modules/${module}/` },
    to: { path: '^src/modules/[^/]+/', pathNot: `^src/modules/(${allowed.join('|')})/` },
  };
});

module.exports = {
  forbidden: [
    {
      name: 'module-private',
      comment: "Another module's files are private: import its public face (modules/<name>/index.ts)",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/[^/]+/', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index\\.ts$'] },
    },
    {
      name: 'unlisted-module',
      comment: 'Every folder of src/modules has a definition (<name>/<name>.module.ts)',
      severity: 'error',
      from: {},
      to: { path: `^src/modules/(?!(${MODULE_NAMES.join('|')})/|index\\.ts$)` },
    },
    {
      name: 'platform-below-modules',
      comment: 'platform/ is shared by every module and knows none of them',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: '^src/(modules|app|index)' },
    },
    {
      // core/ and kits/ are one layer (docs/architecture.md): kits build on core, and core's runtime reaches only the
      // kits the request pipeline itself stands on. The kits verticals build with (state machine, deadlines, money,
      // geo, catalog, moderation, handover, media, and any new one) stay out of core: core never loads them
      // (a type, as a module definition's catalog record, is not a load).
      name: 'core-below-vertical-kits',
      comment: 'platform/core may load only the foundation kits: firestore, time, text, ids, tasks, idempotency, i18n, memo, counters',
      severity: 'error',
      from: { path: '^src/platform/core/' },
      to: {
        path: '^src/platform/kits/',
        pathNot: `^src/platform/kits/(${CORE_KITS.join('|')})/`,
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.build.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};

// Read by the unit test (not a dependency-cruiser option: hidden from its config check).
Object.defineProperty(module.exports, 'moduleUses', { value: USES, enumerable: false });
