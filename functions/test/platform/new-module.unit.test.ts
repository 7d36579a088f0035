import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';

// `npm run new:module`: each shape into a temporary copy of the files it reads and edits; what it writes parses,
// follows the module's names, joins the module list and the index file, and never overwrites; bad requests are
// refused with exit 1 and nothing written. (The generated modules were type-checked, linted and run against the
// emulators when the generator landed; this test keeps the generator's contract, fast.)
const root = path.join(__dirname, '..', '..', '..');
const script = path.join(root, 'scripts', 'new-module.mjs');

interface Plan {
  names: { name: string; tag: string; collection: string };
  files: Record<string, string>;
  edits: Record<string, string>;
}

let tmp: string;

function copyRoot(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'new-module-'));
  for (const file of [
    'firestore.rules',
    'firestore.indexes.json',
    'functions/src/modules',
    'functions/src/module-switches.generated.ts',
    'functions/src/platform/core/openapi/tags.ts',
    'functions/src/platform/core/module/module-lists.generated.ts',
  ])
    fs.cpSync(path.join(root, file), path.join(dir, file), { recursive: true });
  fs.mkdirSync(path.join(dir, 'docs', 'api'), { recursive: true });
  return dir;
}

function run(...args: string[]) {
  const res = spawnSync(process.execPath, [script, ...args, '--root', tmp], { encoding: 'utf8' });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

function parseErrors(file: string, text: string): string[] {
  const { diagnostics = [] } = ts.transpileModule(text, { fileName: file, reportDiagnostics: true, compilerOptions: { target: ts.ScriptTarget.ES2022 } });
  return diagnostics.map((d) => `${file}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

beforeEach(() => {
  tmp = copyRoot();
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('npm run new:module', () => {
  it.each([
    ['catalog', 'helpdesk', ['--tag', 'support'], ['helpdesk.catalog.ts', 'helpdesk.wiring.ts', 'helpdesk.routes.ts', 'helpdesk.collections.ts']],
    [
      'lifecycle',
      'helpdesk',
      ['--tag', 'support'],
      [
        'helpdesk.machine.ts',
        'helpdesk.deadline.ts',
        'helpdesk.lifecycle.ts',
        'helpdesk.tasks.ts',
        'helpdesk.triggers.ts',
        'helpdesk.errors.ts',
        'helpdesk.repo.ts',
      ],
    ],
    ['content', 'notes', ['--tag', 'support'], ['notes.errors.ts', 'notes.repo.ts', 'notes.service.ts', 'notes.routes.ts', 'notes.schemas.ts']],
  ])('%s: writes the folder, its test and API page, the module line and the index block; every file parses', (shape, name, extra, own) => {
    const dry = run(name, '--shape', shape, ...extra, '--dry-run', '--json');
    expect([dry.status, dry.stderr]).toEqual([0, '']);
    const plan = JSON.parse(dry.stdout) as Plan;
    const src = `functions/src/modules/${name}`;
    expect(Object.keys(plan.files)).toEqual(
      expect.arrayContaining([
        `${src}/index.ts`,
        `${src}/${name}.module.ts`,
        ...own.map((f) => `${src}/${f}`),
        `functions/test/modules/${name}/${name}.test.ts`,
        `docs/api/${name}.md`,
      ]),
    );
    // A lifecycle module has a switch (its accept window): its fragment joins the entry's list too.
    const switchesFile = 'functions/src/module-switches.generated.ts';
    expect(Object.keys(plan.edits).sort()).toEqual([
      'firestore.indexes.json',
      ...(shape === 'lifecycle' ? [switchesFile] : []),
      'functions/src/modules/index.ts',
    ]);
    expect(fs.existsSync(path.join(tmp, src))).toBe(false); // a dry run writes nothing

    for (const [file, text] of Object.entries(plan.files)) if (file.endsWith('.ts')) expect(parseErrors(file, text)).toEqual([]);
    const definition = plan.files[`${src}/${name}.module.ts`];
    expect(definition).toMatch(new RegExp(`export const ${name}Module = defineModule\\(\\{\\n {2}name: '${name}',\\n {2}uses: \\[[^\\]\\n]*\\],\\n`));
    expect(plan.files[`${src}/${name}.routes.ts`]).toMatch(new RegExp(`export function ${name}Routes\\(`));
    expect(Object.entries(plan.files).filter(([file, text]) => /\.(routes|catalog)\.ts$/.test(file) && text.includes(`'${plan.names.tag}'`)).length).toBe(1);
    if (shape === 'lifecycle') {
      expect(plan.files[`${src}/${name}.triggers.ts`]).toContain('typedTrigger(');
      expect(plan.files[`${src}/${name}.deadline.ts`]).toContain('defineDeadline<');
      expect(plan.files[`${src}/${name}.lifecycle.ts`]).toContain('transition(');
      expect(plan.files[`${src}/${name}.config.ts`]).toContain(`export const ${name}Switches = defineSwitches({\n  HELPDESK_ACCEPT_WITHIN_SEC: {`);
      expect(plan.files[`${src}/${name}.lifecycle.ts`]).toContain('config.HELPDESK_ACCEPT_WITHIN_SEC * 1000');
      expect(definition).toContain(`  config: ${name}Switches,\n`);
      const switches = plan.edits[switchesFile];
      // After the last module's fragment, in the import block and in the list (its module is last in MODULES).
      expect(switches).toMatch(new RegExp(`\\.config';\\nimport \\{ ${name}Switches \\} from './modules/${name}/${name}\\.config';\\n\\nexport const`));
      expect(switches).toMatch(new RegExp(`Switches \\},\\n  \\{ module: '${name}', switches: ${name}Switches \\},\\n\\];\\n$`));
    } else {
      expect(Object.keys(plan.files).some((file) => file.endsWith('.config.ts'))).toBe(false);
    }
    const list = plan.edits['functions/src/modules/index.ts'];
    expect(list).toContain(`import { ${name}Module } from './${name}/${name}.module';\n`);
    expect(list).toMatch(new RegExp(` {4}\\w+Module,\\n {4}${name}Module,\\n {2}\\]\\)`));
    const indexes = JSON.parse(plan.edits['firestore.indexes.json']) as {
      indexes: Array<{ collectionGroup: string }>;
      fieldOverrides: Array<{ collectionGroup: string; fieldPath: string }>;
    };
    expect(indexes.indexes.filter((i) => i.collectionGroup === plan.names.collection).length).toBeGreaterThan(0);
    // A catalog's cell index keeps its maps out of every index (deploy:check fails otherwise).
    if (shape === 'catalog')
      expect(indexes.fieldOverrides.filter((o) => o.collectionGroup === `${plan.names.collection}_cells`).map((o) => o.fieldPath)).toEqual(['c', 'e']);

    const wrote = run(name, '--shape', shape, ...extra);
    expect(wrote.status).toBe(0);
    expect(wrote.stdout).toContain(`wrote ${src}/${name}.module.ts`);
    expect(wrote.stdout).toContain('edited functions/src/modules/index.ts');
    for (const [file, text] of Object.entries({ ...plan.files, ...plan.edits })) expect(fs.readFileSync(path.join(tmp, file), 'utf8')).toBe(text);
    // Once is enough: the module exists now.
    const twice = run(name, '--shape', shape, ...extra);
    expect([twice.status, twice.stderr]).toEqual([1, `[new:module] refused: module "${name}" exists already (functions/src/modules/${name})\n`]);
  });

  it.each([
    [['Bad_Name', '--shape', 'content'], /bad name "Bad_Name"/],
    [['index', '--shape', 'content', '--tag', 'support'], /bad name "index": reserved/],
    [['fuel', '--shape', 'catalog'], /module "fuel" exists already/],
    [['helpdesk', '--shape', 'shop', '--tag', 'support'], /unknown shape "shop": one of catalog, lifecycle, content/],
    [['helpdesk', '--tag', 'support'], /unknown shape ""/],
    [['notes', '--shape', 'content'], /"notes" is not an API tag of the spec/],
    [['helpdesk', '--shape', 'catalog', '--tag', 'support', '--collection', 'fuel_stations'], /collection "fuel_stations" belongs to another module/],
    [['helpdesk', 'surgeries', '--shape', 'catalog', '--tag', 'support'], /one name only/],
    [['helpdesk', '--shape', 'catalog', '--tag', 'support', '--force'], /unknown option --force/],
    [[], /usage: npm run new:module/],
  ])('refuses %j with exit 1, writing nothing', (args, message) => {
    const before = fs.readFileSync(path.join(tmp, 'functions/src/modules/index.ts'), 'utf8');
    const res = run(...args);
    expect(res.status).toBe(1);
    expect(res.stderr).toMatch(message);
    expect(fs.readFileSync(path.join(tmp, 'functions/src/modules/index.ts'), 'utf8')).toBe(before);
  });

  it('never overwrites a file in its way (the test file of an earlier attempt)', () => {
    fs.mkdirSync(path.join(tmp, 'functions/test/modules/helpdesk'), { recursive: true });
    fs.writeFileSync(path.join(tmp, 'functions/test/modules/helpdesk/helpdesk.test.ts'), '// mine\n');
    const res = run('helpdesk', '--shape', 'catalog', '--tag', 'support');
    expect([res.status, res.stderr]).toEqual([1, '[new:module] refused: functions/test/modules/helpdesk/helpdesk.test.ts exists already: nothing written\n']);
    expect(fs.existsSync(path.join(tmp, 'functions/src/modules/helpdesk'))).toBe(false);
    expect(fs.readFileSync(path.join(tmp, 'functions/test/modules/helpdesk/helpdesk.test.ts'), 'utf8')).toBe('// mine\n');
  });
});
