// The form every file keeps, checked by `npm test` (the lint step) and `npm run lint`. Prettier owns the layout
// (.prettierrc.json); ESLint owns sizes, names and the escape hatches a module must not use because a kit does it.
import path from 'node:path';
import tseslint from 'typescript-eslint';

const camel = (stem) => stem.replace(/[.-](\w)/g, (_, c) => c.toUpperCase());

// Local rules: names the general rules cannot express.
const FUNCTION_TYPES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

// A function's own lines: its span minus the spans of the functions written inside it. A factory that returns
// twenty short methods is not one long function; one method of eighty lines is.
function ownLines(fn, sourceCode) {
  let nested = 0;
  const visit = (node) => {
    for (const key of sourceCode.visitorKeys[node.type] ?? []) {
      const child = node[key];
      for (const c of Array.isArray(child) ? child : [child]) {
        if (!c || typeof c.type !== 'string') continue;
        if (FUNCTION_TYPES.has(c.type)) nested += c.loc.end.line - c.loc.start.line + 1;
        else visit(c);
      }
    }
  };
  visit(fn.body);
  return fn.loc.end.line - fn.loc.start.line + 1 - nested;
}

const local = {
  rules: {
    'max-own-lines-per-function': {
      meta: { type: 'suggestion', schema: [{ type: 'integer' }], messages: { long: '{{name}} has {{lines}} lines of its own (more than {{max}}): split it' } },
      create(context) {
        const max = context.options[0] ?? 80;
        const check = (node) => {
          // A route list exported by a *.routes.ts file is declarations (paths, schemas, docs), bounded by the file
          // limit; its handlers count alone.
          if (node.id?.name?.endsWith('Routes') && node.parent?.type === 'ExportNamedDeclaration' && context.filename.endsWith('.routes.ts')) return;
          const lines = ownLines(node, context.sourceCode);
          if (lines > max) context.report({ node, messageId: 'long', data: { name: node.id?.name ?? node.parent?.key?.name ?? node.parent?.id?.name ?? 'A function', lines, max } });
        };
        return { FunctionDeclaration: check, FunctionExpression: check, ArrowFunctionExpression: check };
      },
    },
    'routes-named-after-file': {
      meta: { type: 'suggestion', schema: [], messages: { name: 'Routes of {{file}} are named {{expected}}…Routes, not {{name}}' } },
      create(context) {
        if (!context.filename.endsWith('.routes.ts')) return {};
        const stem = path.basename(context.filename).replace(/\.routes\.ts$/, '');
        const expected = camel(stem);
        const check = (node, name) => {
          if (name?.endsWith('Routes') && !name.startsWith(expected)) context.report({ node, messageId: 'name', data: { file: path.basename(context.filename), expected, name } });
        };
        return {
          'ExportNamedDeclaration > FunctionDeclaration'(node) {
            check(node, node.id?.name);
          },
          'ExportNamedDeclaration > VariableDeclaration > VariableDeclarator'(node) {
            check(node, node.id?.name);
          },
          // `export { a as xRoutes }` names a route list too.
          'ExportNamedDeclaration > ExportSpecifier'(node) {
            check(node, node.exported?.name);
          },
        };
      },
    },
  },
};

// What a module must take from a kit instead of writing itself.
const kitOnly = {
  imports: [
    { name: 'node:crypto', importNames: ['createHash'], message: 'Ids from keys: stableId (platform/kits/ids/stable-id); content digests: sha256 (platform/kits/ids/digest).' },
    { name: 'crypto', message: 'Use node:crypto through the kits (stableId for ids).' },
    { name: 'firebase-admin/functions', message: 'Tasks go through platform/kits/tasks (queues) or platform/kits/deadlines (timers).' },
  ],
  patterns: [
    {
      group: ['**/platform/kits/state-machine/*'],
      importNames: ['recordTransition'],
      message: 'Moves go through transition() of the state-machine kit, which records them (recordNote for a line that moves nothing).',
    },
    {
      group: ['**/platform/kits/state-machine/history', '**/platform/kits/state-machine/transition', '**/platform/kits/state-machine/machine'],
      message: 'Import the state-machine kit through its face (platform/kits/state-machine/state-machine).',
    },
  ],
  syntax: [
    { selector: "CallExpression[callee.property.name='toISOString']", message: 'Times leave as iso()/isoOrNull() from platform/kits/time/time.' },
    { selector: "TSAsExpression[expression.type='TSAsExpression'][expression.typeAnnotation.type='TSUnknownKeyword']", message: '`as unknown as` hides a type error: convert with a schema or a kit.' },
    { selector: ":matches(FunctionDeclaration, VariableDeclarator)[id.name='transition']", message: 'A local `transition` shadows the state-machine kit: use the kit or another name.' },
    { selector: "Property[key.name='delaySec']", message: 'A timer is a deadline: declare it with platform/kits/deadlines (scheduling, task, emulator timer, lazy check).' },
  ],
};

export default tseslint.config(
  { ignores: ['dist/**', 'lib/**', 'node_modules/**', 'coverage/**'] },
  {
    files: ['src/**/*.ts', 'test/**/*.ts'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 2024, sourceType: 'module' },
    plugins: { '@typescript-eslint': tseslint.plugin, local },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      '@typescript-eslint/no-duplicate-enum-values': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      'no-var': 'error',
      'prefer-const': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-debugger': 'error',
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 400 }],
      'local/max-own-lines-per-function': ['error', 80],
      'local/routes-named-after-file': 'error',
    },
  },
  {
    files: ['src/modules/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: kitOnly.imports, patterns: kitOnly.patterns }],
      'no-restricted-syntax': ['error', ...kitOnly.syntax],
    },
  },
);
