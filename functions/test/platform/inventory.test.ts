import { randomUUID } from 'node:crypto';
import { ConflictError } from '../../src/platform/core/errors/app-error';
import { db, inTransaction } from '../../src/platform/core/firebase/firebase';
import { oneAtATime } from '../../src/platform/kits/firestore/one-at-a-time';
import { defineInventory, type UnitDocument } from '../../src/platform/kits/inventory/inventory';
import { requireEmulators } from '../helpers/emulators';

// The inventory kit against the emulator: holds, confirmations and releases of a resource's units in transactions,
// the last unit raced by thirty bookings, a hold that runs out freeing its capacity without a write.
beforeAll(requireEmulators);

const COLLECTION = 'test_inventory_units';
const inventory = defineInventory({ collection: COLLECTION, unavailableCode: 'CONFLICT' });
const busy = () => new ConflictError('queue too long');
const NIGHTS = ['2027-01-01', '2027-01-02'];
const unitDoc = async (resourceId: string, unit: string) =>
  (await db().collection(COLLECTION).doc(`${resourceId}_${unit}`).get()).data() as UnitDocument | undefined;

/**
 * One booking's hold in its own transaction, queued per resource as a booking engine runs it (the queue's wait capped at
 * a minute, not 5 s: thirty transactions on a loaded machine outlast that, and the cap is not what is tested here).
 */
const hold = (
  resourceId: string,
  bookingId: string,
  opts: { qty?: number; capacity?: number; until?: number; now?: number; as?: 'CONFIRMED' | { until: number } } = {},
) =>
  oneAtATime(
    `inventory/${resourceId}`,
    busy,
    () =>
      inTransaction(async (tx) => {
        const now = opts.now ?? Date.now();
        const held = await inventory.txHold(tx, {
          resourceId,
          units: NIGHTS,
          capacityOf: () => opts.capacity ?? 1,
          bookingId,
          qty: opts.qty ?? 1,
          until: opts.until ?? now + 600_000,
          now,
        });
        held.write(opts.as);
      }),
    60_000,
  );

describe('inventory kit', () => {
  it('thirty bookings of the last room at once: exactly one holds it, the others 409 naming the night and what is left', async () => {
    const resourceId = `room-${randomUUID()}`;
    const outcomes = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => hold(resourceId, `booking-${i}`)));
    const held = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as ConflictError] : []));
    expect(held).toHaveLength(1);
    expect(refused.map((e) => [e.statusCode, e.code, e.details])).toEqual(
      refused.map(() => [409, 'CONFLICT', { unit: '2027-01-01', available: 0, requested: 1 }]),
    );
    const [first, second] = await Promise.all(NIGHTS.map((n) => unitDoc(resourceId, n)));
    expect(Object.keys(first!.entries)).toHaveLength(1);
    expect(second!.entries).toEqual(first!.entries);
    expect(await inventory.available(resourceId, NIGHTS, () => 1, Date.now())).toEqual(NIGHTS.map((unit) => ({ unit, available: 0 })));
  });

  it('a hold that ran out frees its rooms at once (no write needed) and is dropped by the next write; holding again does not count twice', async () => {
    const resourceId = `room-${randomUUID()}`;
    const now = Date.now();
    await hold(resourceId, 'early', { capacity: 2, until: now + 1_000, now });
    await hold(resourceId, 'again', { capacity: 2, now });
    await hold(resourceId, 'again', { capacity: 2, now, qty: 1 });
    await expect(hold(resourceId, 'third', { capacity: 2, now })).rejects.toMatchObject({ statusCode: 409, details: { available: 0 } });
    expect(await inventory.available(resourceId, NIGHTS, () => 2, now + 2_000)).toEqual(NIGHTS.map((unit) => ({ unit, available: 1 })));
    await hold(resourceId, 'third', { capacity: 2, now: now + 2_000 });
    expect(Object.keys((await unitDoc(resourceId, NIGHTS[0]))!.entries).sort()).toEqual(['again', 'third']);
  });

  it('a hold written as taken at once (a booking paid in its transaction) is CONFIRMED; written until another time, held until then', async () => {
    const resourceId = `room-${randomUUID()}`;
    const now = Date.now();
    await hold(resourceId, 'paid', { capacity: 3, now, as: 'CONFIRMED' });
    await hold(resourceId, 'waiting', { capacity: 3, now, until: now + 1_000, as: { until: now + 86_400_000 } });
    expect((await unitDoc(resourceId, NIGHTS[0]))!.entries).toEqual({
      paid: { qty: 1, state: 'CONFIRMED', until: null },
      waiting: { qty: 1, state: 'HELD', until: now + 86_400_000 },
    });
    expect(await inventory.available(resourceId, NIGHTS, () => 3, now + 3_600_000)).toEqual(NIGHTS.map((unit) => ({ unit, available: 1 })));
  });

  it('confirm turns a live hold into a take (not a hold run out); release gives either back; both are no-ops repeated', async () => {
    const resourceId = `room-${randomUUID()}`;
    const now = Date.now();
    await hold(resourceId, 'kept', { capacity: 2, now });
    await hold(resourceId, 'lapsed', { capacity: 2, until: now + 1_000, now });
    const confirm = (bookingId: string, at: number) =>
      inTransaction(async (tx) => {
        const c = await inventory.txConfirm(tx, { resourceId, units: NIGHTS, bookingId, now: at });
        c.write();
        return c.held;
      });
    const release = (bookingId: string, at: number) =>
      inTransaction(async (tx) => (await inventory.txRelease(tx, { resourceId, units: NIGHTS, bookingId, now: at })).write());
    expect(await confirm('kept', now + 2_000)).toBe(true);
    expect(await confirm('kept', now + 2_000)).toBe(true);
    expect(await confirm('lapsed', now + 2_000)).toBe(false);
    expect((await unitDoc(resourceId, NIGHTS[1]))!.entries).toEqual({ kept: { qty: 1, state: 'CONFIRMED', until: null } });
    // Confirmed takes never run out.
    expect(await inventory.available(resourceId, NIGHTS, () => 2, now + 86_400_000)).toEqual(NIGHTS.map((unit) => ({ unit, available: 1 })));
    await release('kept', now + 3_000);
    await release('kept', now + 3_000);
    await release('never-held', now + 3_000);
    expect((await unitDoc(resourceId, NIGHTS[0]))!.entries).toEqual({});
    expect(await inventory.available(resourceId, NIGHTS, () => 2, now + 3_000)).toEqual(NIGHTS.map((unit) => ({ unit, available: 2 })));
  });

  it('refuses what would break its keys or let every hold through: a booking id that is no field name, ids with `_` or `/`, no or repeated units, a capacity that is no whole number, a quantity below one', async () => {
    const resourceId = `room-${randomUUID()}`;
    const holdUnits = (units: string[], over: { resource?: string; capacity?: number } = {}) =>
      inTransaction(async (tx) =>
        (
          await inventory.txHold(tx, {
            resourceId: over.resource ?? resourceId,
            units,
            capacityOf: () => over.capacity as number,
            bookingId: 'b1',
            qty: 1,
            until: Date.now() + 60_000,
            now: Date.now(),
          })
        ).write(),
      );
    await expect(hold(resourceId, 'a.b')).rejects.toThrow(/booking id/);
    await expect(hold(resourceId, '__name__')).rejects.toThrow(/booking id/);
    await expect(hold(resourceId, 'ok', { qty: 0 })).rejects.toThrow(/quantity/);
    await expect(holdUnits([], { capacity: 1 })).rejects.toThrow(/1\.\.1000 units/);
    await expect(holdUnits(['2027-01-01', '2027-01-01'], { capacity: 1 })).rejects.toThrow(/twice/);
    await expect(holdUnits(['slot_1'], { capacity: 1 })).rejects.toThrow(/a unit must match/);
    await expect(holdUnits(['slot/1'], { capacity: 1 })).rejects.toThrow(/a unit must match/);
    await expect(holdUnits(['2027-01-01'], { capacity: 1, resource: 'a_b' })).rejects.toThrow(/resource id/);
    await expect(holdUnits(['2027-01-01'], { capacity: undefined })).rejects.toThrow(/capacity/);
    await expect(holdUnits(['2027-01-01'], { capacity: 1.5 })).rejects.toThrow(/capacity/);
    expect(await unitDoc(resourceId, NIGHTS[0])).toBeUndefined();
  });
});
