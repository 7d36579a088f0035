import { MERCHANT_ITEMS, MERCHANTS } from '../../../src/modules/merchants';
import { seedMerchants } from '../../../src/modules/merchants/merchants.seed';
import { DEMO_MERCHANTS } from '../../../src/modules/merchants/merchants.seed-data';
import { db } from '../../../src/platform/core/firebase/firebase';
import { requireEmulators } from '../../helpers/emulators';
import { activePartner } from '../../helpers/partners';

beforeAll(requireEmulators);

// The demo merchants' seed (npm start) through the kit's services: 20 stores with their menus, and a second run
// writing the same documents. Serial: the seed's stores lie at fixed places other files' random areas could reach;
// they are removed at the end.

const ids = DEMO_MERCHANTS.map((m) => m.id);
async function snapshot() {
  const stores = await db().getAll(...ids.map((id) => db().collection(MERCHANTS).doc(id)));
  const items = await Promise.all(ids.map((id) => db().collection(MERCHANT_ITEMS).where('merchantId', '==', id).get()));
  return {
    stores: stores.map((s) => s.data()),
    items: items.flatMap((q) => q.docs.map((d) => [d.id, d.data()])),
  };
}

async function removeSeeded(): Promise<void> {
  const items = await Promise.all(ids.map((id) => db().collection(MERCHANT_ITEMS).where('merchantId', '==', id).get()));
  const writer = db().bulkWriter();
  for (const doc of items.flatMap((q) => q.docs)) void writer.delete(doc.ref);
  for (const id of ids) void writer.delete(db().collection(MERCHANTS).doc(id));
  await writer.close();
}
// The test stack imports emulator-data/, whose seed holds the same stores for its own demo partner.
beforeAll(removeSeeded);
afterAll(removeSeeded);

it('seeds 20 merchants with their menus for the demo partner, the same documents on a second run', async () => {
  const owner = await activePartner('Công ty Dịch vụ Đô Thị Xanh');
  const lines: string[] = [];
  const ctx = {
    now: Date.parse('2026-01-01T00:00:00Z'),
    fixtures: { DEMO_PARTNER: { id: owner.partnerId, userId: owner.user.id } },
    write: async () => undefined,
    log: (line: string) => lines.push(line),
  };
  await seedMerchants(ctx);
  const first = await snapshot();
  expect(first.stores.every((s) => s?.partnerId === owner.partnerId && s.status === 'ACTIVE')).toBe(true);
  expect(first.stores.filter((s) => s?.details.paused)).toHaveLength(1);
  const items = first.items.map(
    ([, item]) => item as { stock: number | null; available: boolean; optionGroups: unknown[]; createdAt?: number; updatedAt: number },
  );
  expect(items.length).toBeGreaterThan(100);
  expect(items.filter((i) => i.stock === 0).length).toBeGreaterThan(3);
  expect(items.filter((i) => typeof i.stock === 'number' && i.stock > 0).length).toBeGreaterThan(10);
  expect(items.every((i) => i.updatedAt === ctx.now)).toBe(true);
  expect(lines).toEqual([expect.stringMatching(/^seed: merchants: 20, menu items: \d+$/)]);

  await seedMerchants(ctx);
  expect(await snapshot()).toEqual(first);
});
