import path from 'node:path';
import { collectionOf } from '../../src/platform/core/deploy/cost-log';

// The cost budgets' arithmetic (scripts/lib/cost-budgets.cjs): a run's lines summed per operation, its median and
// worst call, the budget written from them, and the check naming an operation over budget or without one.
type Run = { op: string; status?: number; late?: true; reads: number; writes: number; deletes: number; by: Record<string, [number, number, number]> };
type Summary = {
  op: string;
  calls: number;
  refused: number;
  reads: { p50: number; max: number };
  writes: { p50: number; max: number };
  collections: string[];
};
type Budget = { reads: number; writes: number; maxReads: number; maxWrites: number };
const lib = require(path.join(__dirname, '..', '..', '..', 'scripts', 'lib', 'cost-budgets.cjs')) as {
  summarize(lines: Run[]): Summary[];
  budgetOf(s: Summary): Budget;
  mergeBudgets(old: Record<string, Budget>, fresh: Record<string, Budget>): Record<string, Budget>;
  check(summary: Summary[], budgets: Record<string, Budget>): { problems: string[]; warnings: string[] };
};
const run = (op: string, reads: number, writes: number, by: Run['by'] = { bookings: [reads, writes, 0] }, status = 200): Run => ({
  op,
  status,
  reads,
  writes,
  deletes: 0,
  by,
});
const thrice = (op: string, reads: number, writes = 0) => [run(op, reads, writes), run(op, reads, writes), run(op, reads, writes)];

describe('cost budgets', () => {
  it('a run is summed per operation: its calls answered 2xx, the refusals beside them, median and worst call, its collections', () => {
    const [s] = lib.summarize([
      run('bookHotelStay', 8, 9),
      run('bookHotelStay', 10, 9),
      run('bookHotelStay', 40, 12, { bookings: [30, 2, 0], payments: [10, 10, 0] }),
      run('bookHotelStay', 2, 1, { rate_limits: [1, 1, 0], users: [1, 0, 0] }, 409),
    ]);
    expect(s).toMatchObject({ op: 'bookHotelStay', calls: 3, refused: 1, reads: { p50: 10, max: 40 }, writes: { p50: 9, max: 12 } });
    expect(s.collections).toEqual(['bookings 48r/20w', 'payments 10r/10w', 'rate_limits 1r/1w', 'users 1r/0w']);
    // Only refusals: budgeted on those. Work after the answer: an operation of its own.
    expect(lib.summarize([run('login', 3, 1, undefined, 401), { ...run('login', 5, 5), late: true }]).map((x) => [x.op, x.calls, x.reads.p50])).toEqual([
      ['login', 1, 3],
      ['login (after the answer)', 1, 5],
    ]);
  });

  it('a budget leaves half again and 3 on the median call, four times and 20 on the worst; written again, none is lowered', () => {
    const [s] = lib.summarize([run('getBooking', 4, 0), run('getBooking', 6, 1)]);
    const budget = lib.budgetOf(s);
    expect(budget).toEqual({ reads: 11, writes: 4, maxReads: 44, maxWrites: 24 });
    expect(lib.check([s], { getBooking: budget })).toEqual({ problems: [], warnings: [] });
    const merged = lib.mergeBudgets({ getBooking: { ...budget, reads: 20 }, gone: budget }, { getBooking: { ...budget, writes: 9 }, fresh: budget });
    expect(merged).toEqual({ fresh: budget, getBooking: { ...budget, reads: 20, writes: 9 }, gone: budget });
  });

  it('an operation whose median call reads more than its budget fails with its numbers; a worst call over its bound, or a trigger without a budget, is told', () => {
    const summary = lib.summarize([
      ...thrice('listBookings', 30),
      run('trigger:bookingStatusChanged', 5, 3),
      ...thrice('searchHotelStays', 600),
      run('getHotel', 90, 0),
    ]);
    const { problems, warnings } = lib.check(summary, {
      listBookings: { reads: 23, writes: 3, maxReads: 200, maxWrites: 20 },
      searchHotelStays: { reads: 1_000, writes: 3, maxReads: 500, maxWrites: 20 },
      getHotel: { reads: 10, writes: 3, maxReads: 100, maxWrites: 20 },
    });
    // getHotel: one call is no median to hold to its budget (its worst is within bound).
    expect(problems).toEqual(['listBookings (3 calls): a median call reads 30 documents (budget 23); most: bookings 90r/0w']);
    expect(warnings).toEqual([
      'searchHotelStays (3 calls): the worst call reads 600 (bound 500); most: bookings 1800r/0w',
      expect.stringMatching(/^trigger:bookingStatusChanged: no budget/),
    ]);
    expect(lib.check(lib.summarize([run('newOperation', 1, 1)]), {}).problems).toEqual([expect.stringMatching(/^newOperation: no budget/)]);
  });

  it('documents are counted under their collection path, subcollections with their parents as *', () => {
    expect(collectionOf('bookings/b1')).toBe('bookings');
    expect(collectionOf('bookings/b1/events/e1')).toBe('bookings/*/events');
    expect(collectionOf('ledger_accounts/a/ledger_shards/3')).toBe('ledger_accounts/*/ledger_shards');
  });
});
