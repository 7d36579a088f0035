import { shortUnit, takenOf, type UnitEntry } from '../../src/platform/kits/inventory/inventory';
import { hoursOf, isCalendarDate, localTime, nightsOf } from '../../src/platform/kits/inventory/units';

// The inventory kit's pure parts: the units of a stay or a time window in the resource's zone, and capacity taken by
// live entries (a hold counts until it runs out, without a write).
const HCMC = 'Asia/Ho_Chi_Minh';
const rules = { maxUnits: 30, maxDaysAhead: 365 };
// 2026-12-24 10:00 in Hồ Chí Minh City (UTC+7).
const now = Date.UTC(2026, 11, 24, 3, 0);

describe('units', () => {
  it('a stay is its nights, from the check-in date to the day before check-out', () => {
    expect(nightsOf('2026-12-24', '2026-12-27', rules, now, HCMC)).toEqual({ units: ['2026-12-24', '2026-12-25', '2026-12-26'] });
    expect(nightsOf('2026-12-31', '2027-01-02', rules, now, HCMC)).toEqual({ units: ['2026-12-31', '2027-01-01'] });
    expect(nightsOf('2028-02-28', '2028-03-01', { ...rules, maxDaysAhead: 1000 }, now, HCMC)).toEqual({ units: ['2028-02-28', '2028-02-29'] });
  });

  it('refuses dates that do not exist, reversed or empty stays, the past, stays too long or too far ahead', () => {
    expect(isCalendarDate('2026-02-30')).toBe(false);
    expect(nightsOf('2026-02-30', '2026-03-02', rules, now, HCMC)).toEqual({ problem: 'INVALID_DATE', field: 'from' });
    expect(nightsOf('2026-12-24', '24/12/2026', rules, now, HCMC)).toEqual({ problem: 'INVALID_DATE', field: 'to' });
    expect(nightsOf('2026-12-26', '2026-12-24', rules, now, HCMC)).toEqual({ problem: 'REVERSED' });
    expect(nightsOf('2026-12-24', '2026-12-24', rules, now, HCMC)).toEqual({ problem: 'REVERSED' });
    expect(nightsOf('2026-12-23', '2026-12-25', rules, now, HCMC)).toEqual({ problem: 'IN_THE_PAST' });
    expect(nightsOf('2026-12-24', '2027-01-24', rules, now, HCMC)).toEqual({ problem: 'TOO_LONG', max: 30 });
    expect(nightsOf('2027-12-25', '2027-12-26', rules, now, HCMC)).toEqual({ problem: 'TOO_FAR_AHEAD', maxDaysAhead: 365 });
  });

  it('"today" is the resource’s local date: at 00:30 on the 25th in Hồ Chí Minh City (17:30 UTC on the 24th) the 24th is past', () => {
    const lateUtc = Date.UTC(2026, 11, 24, 17, 30);
    expect(localTime(lateUtc, HCMC)).toEqual({ date: '2026-12-25', hour: 0 });
    expect(nightsOf('2026-12-24', '2026-12-26', rules, lateUtc, HCMC)).toEqual({ problem: 'IN_THE_PAST' });
    expect(nightsOf('2026-12-24', '2026-12-26', rules, lateUtc, 'UTC')).toEqual({ units: ['2026-12-24', '2026-12-25'] });
  });

  it('a time window is its whole local hours; not on a whole hour, begun, reversed or too long is refused', () => {
    const at18 = Date.UTC(2026, 11, 24, 11); // 18:00 local
    expect(hoursOf(at18, at18 + 3 * 3_600_000, rules, now, HCMC)).toEqual({ units: ['2026-12-24T18', '2026-12-24T19', '2026-12-24T20'] });
    expect(hoursOf(at18 + 6 * 3_600_000, at18 + 8 * 3_600_000, rules, now, HCMC)).toEqual({ units: ['2026-12-25T00', '2026-12-25T01'] });
    expect(hoursOf(at18 + 60_000, at18 + 3_600_000, rules, now, HCMC)).toEqual({ problem: 'INVALID_DATE', field: 'from' });
    expect(hoursOf(at18, at18 + 90 * 60_000, rules, now, HCMC)).toEqual({ problem: 'INVALID_DATE', field: 'to' });
    expect(hoursOf(at18, at18, rules, now, HCMC)).toEqual({ problem: 'REVERSED' });
    expect(hoursOf(now - 3_600_000, now + 3_600_000, rules, now, HCMC)).toEqual({ problem: 'IN_THE_PAST' });
    expect(hoursOf(at18, at18 + 31 * 3_600_000, rules, now, HCMC)).toEqual({ problem: 'TOO_LONG', max: 30 });
  });
});

describe('capacity taken', () => {
  const held = (qty: number, until: number): UnitEntry => ({ qty, state: 'HELD', until });
  const confirmed = (qty: number): UnitEntry => ({ qty, state: 'CONFIRMED', until: null });

  it('counts confirmed takes and holds until they run out, and leaves out the booking asking again', () => {
    const doc = { entries: { a: confirmed(2), b: held(1, now + 1), c: held(3, now), d: held(1, now - 1) } };
    expect(takenOf(doc, now)).toBe(3);
    expect(takenOf(doc, now, 'b')).toBe(2);
    expect(takenOf(undefined, now)).toBe(0);
  });

  it('names the first unit short of the quantity, with what it has left', () => {
    const docs: Array<{ entries: Record<string, UnitEntry> } | undefined> = [
      { entries: { a: confirmed(1) } },
      { entries: { a: confirmed(1), b: held(1, now + 60_000) } },
      undefined,
    ];
    const capacity = () => 2;
    expect(shortUnit(['n1', 'n2', 'n3'], docs, capacity, 1, now)).toEqual({ unit: 'n2', available: 0 });
    expect(shortUnit(['n1', 'n2', 'n3'], docs, capacity, 1, now, 'b')).toBeNull();
    expect(shortUnit(['n1', 'n2', 'n3'], docs, capacity, 1, now + 60_000)).toBeNull();
    expect(shortUnit(['n1', 'n2', 'n3'], docs, (u) => (u === 'n3' ? 0 : 2), 1, now + 60_000)).toEqual({ unit: 'n3', available: 0 });
  });
});
