// Module boundaries, checked by `npm test` (test/unit/module-boundaries.test.ts) and `npm run lint:deps`.
// A module is a folder of src/modules; others reach it through its public face (index.ts) only, and only
// when it sits lower in LAYERS. src/modules/index.ts (the list of module definitions) is the composition root.
const LAYERS = [
  // lowest first: a module may import the public face of modules before it, never after it
  'health',
  'routing',
  'users',
  'notifications',
  'media',
  'kyc',
  'auth',
  'chat',
  'wallet',
  'payments',
  'driver',
  'partners',
  'rides',
  'places',
  'pharmacy',
  'parking',
  'fuel',
  'atm',
  'addresses',
  'favorites',
  'reviews',
  'promotions',
  'admin',
];

const layerRules = LAYERS.map((module, i) => ({
  name: 'layering',
  comment: `${module} may use only modules below it: ${LAYERS.slice(0, i).join(', ') || 'none'}`,
  severity: 'error',
  from: { path: `^src/modules/${module}/` },
  to: { path: `^src/modules/(${LAYERS.filter((_, j) => j > i).join('|') || 'no-module-above'})/` },
}));

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
      comment: 'Every folder of src/modules has a place in LAYERS (.dependency-cruiser.cjs)',
      severity: 'error',
      from: {},
      to: { path: `^src/modules/(?!(${LAYERS.join('|')})/|index\\.ts$)` },
    },
    {
      name: 'platform-below-modules',
      comment: 'platform/ is shared by every module and knows none of them',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: '^src/(modules|app|index)' },
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
