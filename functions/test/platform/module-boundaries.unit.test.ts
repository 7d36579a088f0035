import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

// The module boundaries of .dependency-cruiser.cjs, run by `npm test`: a module reaches another only through
// its public face (index.ts), only to the modules its definition `uses`, with no import cycles; platform/core loads
// only the foundation kits.
const functionsDir = path.join(__dirname, '..', '..');
const depcruise = path.join(functionsDir, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruiser.mjs');
const config = path.join(functionsDir, '.dependency-cruiser.cjs');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

function cruise(cwd: string): { violations: Violation[]; modules: number } {
  const res = spawnSync(process.execPath, [depcruise, 'src', '--config', config, '--output-type', 'json'], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const out = JSON.parse(res.stdout) as { summary: { violations: Violation[]; totalCruised: number } };
  return { violations: out.summary.violations, modules: out.summary.totalCruised };
}

describe('module boundaries (dependency-cruiser)', () => {
  it('src has no violation: public faces only, downward layers, no cycles', () => {
    const { violations, modules } = cruise(functionsDir);
    expect(modules).toBeGreaterThan(100);
    expect(violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
  });

  it('fails on a cross-module repo import, an upward import and the cycle they make (fixture)', () => {
    const { violations } = cruise(path.join(__dirname, '..', 'fixtures', 'boundaries'));
    const found = violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
    expect(found).toEqual(
      expect.arrayContaining([
        'module-private: src/modules/chat/calls.service.ts → src/modules/users/users.repo.ts',
        'layering: src/modules/users/users.service.ts → src/modules/chat/index.ts',
      ]),
    );
    // users/index → users.service → chat/index → calls.service → users/index
    expect(found.some((v) => v.startsWith('no-circular: src/modules/'))).toBe(true);
  });

  it("refuses core loading a vertical kit, not a foundation kit nor a vertical kit's type (fixture)", () => {
    const { violations } = cruise(path.join(__dirname, '..', 'fixtures', 'boundaries'));
    expect(violations.filter((v) => v.rule.name === 'core-below-vertical-kits').map((v) => `${v.from} → ${v.to}`)).toEqual([
      'src/platform/core/http/route.ts → src/platform/kits/state-machine/state-machine.ts',
    ]);
  });

  it('every module folder has a public face and a definition, listed in MODULES, whose `uses` the cruiser reads', () => {
    const { MODULES } = require('../../src/modules') as typeof import('../../src/modules');
    const { moduleUses } = require(config) as { moduleUses: Record<string, string[]> };
    const modulesDir = path.join(functionsDir, 'src', 'modules');
    const folders = fs.readdirSync(modulesDir).filter((f) => fs.statSync(path.join(modulesDir, f)).isDirectory());
    for (const name of folders) {
      expect([name, fs.existsSync(path.join(modulesDir, name, 'index.ts'))]).toEqual([name, true]);
      expect([name, fs.existsSync(path.join(modulesDir, name, `${name}.module.ts`))]).toEqual([name, true]);
    }
    expect(MODULES.map((m) => m.name).sort()).toEqual([...folders].sort());
    expect(Object.fromEntries(MODULES.map((m) => [m.name, [...m.uses].sort()]))).toEqual(
      Object.fromEntries(Object.entries(moduleUses).map(([m, uses]) => [m, [...uses].sort()])),
    );
  });

  it('a module declares in `uses` exactly the modules it imports (none stale)', () => {
    const { MODULES } = require('../../src/modules') as typeof import('../../src/modules');
    const res = spawnSync(process.execPath, [depcruise, 'src/modules', '--config', config, '--output-type', 'json'], {
      cwd: functionsDir,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    const out = JSON.parse(res.stdout) as { modules: Array<{ source: string; dependencies: Array<{ resolved: string }> }> };
    const imported: Record<string, Set<string>> = Object.fromEntries(MODULES.map((m) => [m.name, new Set<string>()]));
    const moduleOf = (file: string) => /^src\/modules\/([^/]+)\//.exec(file)?.[1];
    for (const file of out.modules) {
      const from = moduleOf(file.source);
      for (const dep of file.dependencies) {
        const to = moduleOf(dep.resolved);
        if (from && to && to !== from) imported[from].add(to);
      }
    }
    expect(Object.fromEntries(Object.entries(imported).map(([m, uses]) => [m, [...uses].sort()]))).toEqual(
      Object.fromEntries(MODULES.map((m) => [m.name, [...m.uses].sort()])),
    );
  });
});
