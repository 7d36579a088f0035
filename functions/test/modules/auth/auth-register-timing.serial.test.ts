import { signUpByMail } from '../../helpers/accounts';
import { call, PASSWORD, uniqueEmail } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { apiWith } from '../../helpers/api-with';

beforeAll(requireEmulators);

// Serial: a timing comparison is only meaningful when no other test file loads the emulator and the CPU meanwhile
// (beside 50 concurrent wallet transactions the medians wander by more than the bound).
describe('registration timing (POST /auth/register)', () => {
  it('takes comparable time for new, pending and active emails (median gaps far below one bcrypt hash)', async () => {
    // At production's cost (npm test's API hashes at 4, where a hash is too quick to hide a gap behind).
    const real = await apiWith({ BCRYPT_COST: '10' });
    try {
      const active = await Promise.all([1, 2, 3, 4].map(() => signUpByMail({ api: real.api })));
      const pending = [1, 2, 3, 4].map(() => uniqueEmail('pending-t'));
      for (const email of pending) await call('POST', '/auth/register', { body: { email, password: PASSWORD, name: 'P' }, api: real.api });
      const register = (email: string) => call('POST', '/auth/register', { body: { email, password: 'another password', name: 'T' }, api: real.api });
      const [gapsActive, gapsPending, fastest]: number[][] = [[], [], []];
      for (let i = 0; i < 12; i += 1) {
        const fresh = await register(uniqueEmail('new-t'));
        const known = await register(active[i % 4].email);
        const waiting = await register(pending[i % 4]);
        expect([fresh.status, known.status, waiting.status]).toEqual([200, 200, 200]);
        gapsActive.push(known.ms - fresh.ms);
        gapsPending.push(waiting.ms - fresh.ms);
        fastest.push(Math.min(fresh.ms, known.ms, waiting.ms));
      }
      const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
      // Every answer hashes a password first (bcrypt cost 10: tens of ms); the gaps must be a fraction of that.
      expect(median(fastest)).toBeGreaterThan(20);
      expect(Math.abs(median(gapsActive))).toBeLessThan(median(fastest) * 0.5);
      expect(Math.abs(median(gapsPending))).toBeLessThan(median(fastest) * 0.5);
    } finally {
      await real.close();
    }
  });
});
