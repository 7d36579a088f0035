import { spawnSync } from 'node:child_process';
import path from 'node:path';

// `npm run deploy:check` end to end on a broken deployment (test/fixtures/deploy-bad): it must fail, naming the
// rewrite in the wrong region, the development value in the production env file and the missing composite index.
// Runs the built code (functions/lib and dist), as npm test builds it before the unit tests.
const repoRoot = path.join(__dirname, '..', '..', '..');
const fixture = path.join(__dirname, '..', 'fixtures', 'deploy-bad');

describe('deploy:check on a broken deployment', () => {
  const res = spawnSync(
    process.execPath,
    [path.join(repoRoot, 'scripts', 'deploy-check.mjs'), '--root', fixture, '--queries', path.join(fixture, 'queries.jsonl')],
    { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } },
  );

  it('exits 1 and counts its failures', () => {
    expect(res.status).toBe(1);
    expect(res.stdout).toMatch(/deploy:check: \d+ passed, [1-9]\d* failed/);
  });

  it('fails on the decommissioned runtime, named as firebase deploy names it', () => {
    expect(res.stdout).toMatch(/FAIL functions runtime nodejs20 is one firebase-tools deploys\n\s+- Runtime Node\.js 20 was decommissioned on 2026-10-30/);
  });

  it('names the rewrite in another region', () => {
    expect(res.stdout).toContain('rewrite /api/** → api names region us-central1; the functions run in asia-southeast1 (FUNCTIONS_REGION)');
  });

  it('names the development value in the production env file', () => {
    expect(res.stdout).toContain('PAYMENTS_MOCK must be false in production');
    expect(res.stdout).toContain('ESMS_API_KEY is required when SMS_PROVIDER=esms');
  });

  it('names the missing composite index with the index to add', () => {
    expect(res.stdout).toMatch(/query on rides \(riderId EQUAL, order createdAt DESCENDING\) needs the index \{"collectionGroup":"rides"/);
  });

  it('shows the instance refusing to boot with that file, while discovery still finds every function in the region', () => {
    expect(res.stdout).toMatch(/FAIL superapp-bad: the deploy bundle loads as a production instance\n\s+- .*ConfigError/);
    expect(res.stdout).toMatch(/ok {3}superapp-bad: every function runs in asia-southeast1/);
  });
});
