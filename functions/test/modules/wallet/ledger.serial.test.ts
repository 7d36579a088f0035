import { checkLedger } from '../../../src/modules/wallet/ledger.check';
import { db } from '../../../src/platform/core/firebase/firebase';
import { requireEmulators } from '../../helpers/emulators';
import { LEDGER_ACCOUNTS } from '../../../src/modules/wallet/wallet.collections';

beforeAll(requireEmulators);

// Serial: it reads the whole ledger after every parallel test file has moved its money (npm run ledger:check).
describe('the whole ledger', () => {
  it('balances: every account equals the sum of its transfers, and all balances sum to zero', async () => {
    const report = await checkLedger();
    expect(report.mismatches).toEqual([]);
    expect(report.total).toBe(0);
    expect(report.ok).toBe(true);
  });

  it('finds a balance edited behind the ledger’s back, and names the account', async () => {
    const ref = db().collection(LEDGER_ACCOUNTS).doc('wallet_ledger-check-probe');
    await ref.set({ type: 'WALLET', ownerId: 'ledger-check-probe', balance: 1, reserved: 0, shards: 1, currency: 'VND', createdAt: 0, updatedAt: 0 });
    try {
      const report = await checkLedger();
      expect(report.ok).toBe(false);
      expect(report.total).toBe(1);
      expect(report.mismatches).toEqual([{ accountId: 'wallet_ledger-check-probe', stored: 1, fromTransfers: 0, ok: false }]);
    } finally {
      await ref.delete();
    }
    expect((await checkLedger()).ok).toBe(true);
  });
});
