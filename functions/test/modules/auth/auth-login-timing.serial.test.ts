import { signUpByMail } from '../../helpers/accounts';
import { call, testIp, uniqueEmail } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { apiWith } from '../../helpers/api-with';

beforeAll(requireEmulators);

const login = (body: Record<string, unknown>, ip: string, api: string) => call('POST', '/auth/login/password', { body, ip, api });

// Serial, as the registration's timing test: a timing comparison is only meaningful when no other test file loads the
// emulator and the CPU meanwhile (six parallel workers leave the two cores no slack).
describe('password login timing (POST /auth/login/password)', () => {
  it('takes comparable time for unknown and known accounts (median gap far below one bcrypt hash)', async () => {
    // At production's cost (npm test's API hashes at 4, where a hash is too quick to hide a gap behind).
    const real = await apiWith({ BCRYPT_COST: '10' });
    try {
      // Alternating pairs; wrong passwords on 4 known accounts (below their lock threshold) vs fresh unknown emails.
      const known = await Promise.all([1, 2, 3, 4].map(() => signUpByMail({ api: real.api })));
      const hashMs: number[] = [];
      const gaps: number[] = [];
      for (let i = 0; i < 16; i += 1) {
        const ip = testIp();
        const a = await login({ email: uniqueEmail('ghost'), password: 'wrong password' }, ip, real.api);
        const b = await login({ email: known[i % 4].email, password: 'wrong password' }, ip, real.api);
        expect([a.status, b.status]).toEqual([401, 401]);
        gaps.push(b.ms - a.ms);
        hashMs.push(Math.min(a.ms, b.ms));
      }
      const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
      // Each request includes at least one bcrypt compare (cost 10: tens of ms), so the gap must be a fraction of it.
      expect(median(hashMs)).toBeGreaterThan(20);
      expect(Math.abs(median(gaps))).toBeLessThan(median(hashMs) * 0.5);
    } finally {
      await real.close();
    }
  });
});
