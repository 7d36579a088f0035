import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The checker run by npm test must catch a damaged pack (it re-measures, it does not trust the manifest). That it
// passes the committed pack is npm test's own sound check (30 checks, in its first step), not repeated here.
const root = path.join(__dirname, '..', '..', '..');
const pack = path.join(root, 'assets', 'sounds');
const checker = path.join(root, 'scripts', 'sounds', 'check.mjs');

// Bounded: on 2026-12-01 a run of the checker sat idle for 16 minutes and held npm test; killed after five minutes,
// such a run fails here, saying so (its own ffmpeg runs time out after two: scripts/sounds/audio.mjs).
const BOUNDED = { timeout: 300_000, killSignal: 'SIGKILL' } as const;
function check(dir: string) {
  const res = spawnSync(process.execPath, [checker], { env: { ...process.env, SOUNDS_DIR: dir }, encoding: 'utf8', ...BOUNDED });
  if (res.error) throw new Error(`the checker did not finish: ${res.error.message}`);
  return res;
}

describe('sounds:check', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pack-'));
    for (const f of fs.readdirSync(pack)) fs.copyFileSync(path.join(pack, f), path.join(dir, f));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('fails on a mono, too-quiet file, a missing file, a wrong manifest value and a stray file', () => {
    const quiet = path.join(dir, 'ui_success.mp3');
    const remix = spawnSync(
      'ffmpeg',
      ['-v', 'error', '-y', '-i', quiet, '-ac', '1', '-af', 'volume=-12dB', '-c:a', 'libmp3lame', path.join(dir, 'tmp.mp3')],
      BOUNDED,
    );
    expect([remix.error?.message, remix.status]).toEqual([undefined, 0]);
    fs.renameSync(path.join(dir, 'tmp.mp3'), quiet);
    fs.rmSync(path.join(dir, 'ui_scan_qr.mp3'));
    const manifest = path.join(dir, 'manifest.csv');
    fs.writeFileSync(manifest, fs.readFileSync(manifest, 'utf8').replace(/^notif_default\.mp3,[\d.]+,/m, 'notif_default.mp3,9.999,'));
    fs.writeFileSync(path.join(dir, 'extra.mp3'), 'x');
    const res = check(dir);
    expect(res.status).toBe(1);
    expect(res.stdout).toMatch(/FAIL ui_success\.mp3: 1 channel\(s\), want stereo; loudness -29\.\d LUFS outside -18 to -16/);
    expect(res.stdout).toMatch(/FAIL ui_scan_qr\.mp3: missing/);
    expect(res.stdout).toMatch(/notif_default\.mp3: duration_sec 9\.999 but measured 0\.600/);
    expect(res.stdout).toMatch(/unexpected file extra\.mp3/);
    expect(res.stdout).toMatch(/26 passed, 4 failed/);
  });
});
