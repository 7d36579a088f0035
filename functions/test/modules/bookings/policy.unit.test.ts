import { bookingMachine } from '../../../src/modules/bookings/bookings.machine';
import { cancellationFee } from '../../../src/modules/bookings/bookings.policy';

// The booking engine's pure parts: the cancellation policy and the one table every vertical moves through.
const startsAt = Date.UTC(2027, 0, 10, 7); // 14:00 in Hồ Chí Minh City
const policy = { freeUntilHours: 24, lateFeeBp: 5_000 };
const fee = (now: number, by: 'CONSUMER' | 'PARTNER' | 'ADMIN' = 'CONSUMER', paidVnd = 1_250_001, priceVnd = 1_250_001) =>
  cancellationFee(policy, { priceVnd, paidVnd, startsAt, now, by });

describe('cancellation policy', () => {
  it('is free until the stated hours before the start (that instant included), then the late share of the price, rounded half up', () => {
    expect(fee(startsAt - 24 * 3_600_000)).toEqual({ feeVnd: 0, refundVnd: 1_250_001, free: true, freeUntil: startsAt - 24 * 3_600_000 });
    expect(fee(startsAt - 24 * 3_600_000 + 1)).toMatchObject({ feeVnd: 625_001, refundVnd: 625_000, free: false });
    expect(fee(startsAt + 3_600_000)).toMatchObject({ feeVnd: 625_001 });
  });

  it('charges only the consumer’s own cancellation, and never more than was paid (a deposit; nothing paid at the venue)', () => {
    expect(fee(startsAt, 'PARTNER')).toMatchObject({ feeVnd: 0, refundVnd: 1_250_001 });
    expect(fee(startsAt, 'ADMIN').feeVnd).toBe(0);
    expect(fee(startsAt, 'CONSUMER', 0)).toMatchObject({ feeVnd: 0, refundVnd: 0 });
    expect(fee(startsAt, 'CONSUMER', 300_000)).toMatchObject({ feeVnd: 300_000, refundVnd: 0 });
    const all = { priceVnd: 500_000, paidVnd: 500_000, startsAt, now: startsAt, by: 'CONSUMER' as const };
    expect(cancellationFee({ freeUntilHours: 0, lateFeeBp: 0 }, all).feeVnd).toBe(0);
    expect(cancellationFee({ freeUntilHours: 2, lateFeeBp: 10_000 }, all).feeVnd).toBe(500_000);
  });
});

describe('booking table', () => {
  it('lets each actor make only its own moves, from the statuses the table names', () => {
    const all = ['CONSUMER', 'PARTNER', 'ADMIN', 'SYSTEM'] as const;
    expect(bookingMachine.allowed('HELD', ['SYSTEM']).sort()).toEqual(['confirm', 'expire', 'submit']);
    expect(bookingMachine.allowed('HELD', ['CONSUMER']).sort()).toEqual(['agree', 'cancel']);
    expect(bookingMachine.allowed('PENDING_PARTNER', ['PARTNER']).sort()).toEqual(['accept', 'cancel', 'reject']);
    expect(bookingMachine.allowed('CONFIRMED', ['PARTNER']).sort()).toEqual(['cancel', 'checkIn', 'noShow', 'start']);
    expect(bookingMachine.allowed('CHECKED_IN', ['ADMIN']).sort()).toEqual(['annul', 'complete']);
    expect(bookingMachine.allowed('CHECKED_IN', ['PARTNER'])).toEqual(['complete']);
    expect(bookingMachine.allowed('CONFIRMED', ['CONSUMER'])).toEqual(['cancel']);
    for (const final of ['COMPLETED', 'CANCELLED', 'REJECTED', 'NO_SHOW', 'EXPIRED'] as const) expect(bookingMachine.allowed(final, all)).toEqual([]);
    expect(() => bookingMachine.checkActor('confirm', ['CONSUMER'])).toThrow(expect.objectContaining({ code: 'BOOKING_NOT_ALLOWED' }));
    expect(() => bookingMachine.checkActor('accept', ['CONSUMER'])).toThrow(expect.objectContaining({ code: 'BOOKING_NOT_ALLOWED' }));
    expect(() => bookingMachine.checkActor('accept', ['PARTNER'])).not.toThrow();
  });
});
