import { createHash } from 'node:crypto';
import { stableId } from '../../src/platform/kits/ids/stable-id';

const oldFormula = (text: string, length: number) => createHash('sha256').update(text).digest('base64url').slice(0, length);

describe('stableId', () => {
  it('keeps the ids the modules derived before (scope, caller, key joined by NUL)', () => {
    expect(stableId({ scope: 'topup', caller: 'u1', key: 'k1', length: 27 })).toBe(oldFormula('topup\u0000u1\u0000k1', 27));
    expect(stableId({ key: ['a', 'b'], prefix: 'dm_' })).toBe(`dm_${oldFormula('a\u0000b', 24)}`);
  });

  it('gives different ids to different callers, scopes and key splits', () => {
    const ids = new Set([
      stableId({ scope: 's', caller: 'u1', key: 'k' }),
      stableId({ scope: 's', caller: 'u2', key: 'k' }),
      stableId({ scope: 't', caller: 'u1', key: 'k' }),
      stableId({ key: ['ab', 'c'] }),
      stableId({ key: ['a', 'bc'] }),
    ]);
    expect(ids.size).toBe(5);
  });

  it('is a valid document id of the asked length after the prefix', () => {
    const id = stableId({ caller: 'u/1', key: '../..', prefix: 'x_', length: 20 });
    expect(id).toMatch(/^x_[A-Za-z0-9_-]{20}$/);
  });

  it('refuses lengths that would collide or exceed the hash', () => {
    expect(() => stableId({ key: 'k', length: 8 })).toThrow(/length/);
    expect(() => stableId({ key: 'k', length: 44 })).toThrow(/length/);
  });
});
