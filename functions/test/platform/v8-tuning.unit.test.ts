import { spawnSync } from 'node:child_process';
import { V8_FLAGS } from '../../src/platform/core/deploy/v8-tuning';

describe('platform/core/deploy/v8-tuning', () => {
  it('sets a flag this Node knows (set at run time, a renamed one would only print a warning and change nothing)', () => {
    const run = spawnSync(process.execPath, [...V8_FLAGS.split(' '), '-e', '0'], { encoding: 'utf8' });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    const unknown = spawnSync(process.execPath, ['--no-such-v8-flag-at-all', '-e', '0'], { encoding: 'utf8' });
    expect(unknown.status).not.toBe(0); // the check above can fail
  });
});
