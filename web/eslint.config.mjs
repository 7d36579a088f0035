// The web package's lint: the hooks rules (a hook called conditionally or with missing dependencies is a bug the
// type-check cannot see) and the functions' general rules. Run by `npm test` and `npm run lint` with the functions'
// ESLint, whose packages this config loads (the web package installs no linter of its own).
import { createRequire } from 'node:module';

const require = createRequire(new URL('../functions/package.json', import.meta.url));
const tseslint = require('typescript-eslint');
const hooks = require('eslint-plugin-react-hooks');

export default tseslint.config(
  { ignores: ['client/generated/**', 'node_modules/**'] },
  {
    files: ['**/*.{ts,tsx,mjs}'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 2024, sourceType: 'module', parserOptions: { ecmaFeatures: { jsx: true } } },
    plugins: { '@typescript-eslint': tseslint.plugin, 'react-hooks': hooks },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      // useLoad(load, deps) takes its dependencies as useEffect does: checked the same way.
      'react-hooks/exhaustive-deps': ['error', { additionalHooks: '^useLoad$' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-var': 'error',
      'prefer-const': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-debugger': 'error',
    },
  },
);
