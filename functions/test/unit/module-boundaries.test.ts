import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

// The module boundaries of .dependency-cruiser.cjs, run by `npm test`: a module reaches another only through
// its public face (index.ts), only downwards in LAYERS, with no import cycles.
const functionsDir = path.join(__dirname, '..', '..');
const depcruise = path.join(functionsDir, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruiser.mjs');
const config = path.join(functionsDir, '.dependency-cruiser.cjs');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

function cruise(cwd: string): { violations: Violation[]; modules: number } {
  const res = spawnSync(process.execPath, [depcruise, 'src', '--config', config, '--output-type', 'json'], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const out = JSON.parse(res.stdout) as { summary: { violations: Violation[]; totalCruised: number } };
  return { violations: out.summary.violations, modules: out.summary.totalCruised };
}

describe('module boundaries (dependency-cruiser)', () => {
  it('src has no violation: public faces only, downward layers, no cycles', () => {
    const { violations, modules } = cruise(functionsDir);
    expect(modules).toBeGreaterThan(100);
    expect(violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
  });

  it("fails on a cross-module repo import, an upward import and the cycle they make (fixture)", () => {
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

  it('every module folder has a public face and a definition, and is listed in LAYERS', () => {
    const modulesDir = path.join(functionsDir, 'src', 'modules');
    const layers = fs.readFileSync(config, 'utf8');
    for (const name of fs.readdirSync(modulesDir).filter((f) => fs.statSync(path.join(modulesDir, f)).isDirectory())) {
      expect([name, fs.existsSync(path.join(modulesDir, name, 'index.ts'))]).toEqual([name, true]);
      expect([name, fs.existsSync(path.join(modulesDir, name, `${name}.module.ts`))]).toEqual([name, true]);
      expect(layers).toContain(`'${name}',`);
    }
  });
});
