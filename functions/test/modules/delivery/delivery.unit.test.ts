import { deliverySettings } from '../../../src/modules/delivery/delivery.config';
import { testConfig } from '../../helpers/config';
import { checkHandoverCode, handoverCodeError, newHandoverCodeState } from '../../../src/platform/kits/handover/handover';
import { DELIVERY_STATUSES, deliveryMachine, type DeliveryAction, type DeliveryActor } from '../../../src/modules/delivery/delivery.machine';
import type { DeliveryRecord } from '../../../src/modules/delivery/delivery.model';
import { feeOf, honouredQuote, quoteKeyOf, readQuote, signQuote } from '../../../src/modules/delivery/delivery.pricing';
import { codLegs } from '../../../src/modules/delivery/delivery.settlement';
import { deliveryNotices } from '../../../src/modules/delivery/delivery.triggers';
import { deliveryView } from '../../../src/modules/delivery/delivery.views';

// The pure parts of parcel delivery: the status table, the price, the quote's signature, the hand-over codes, the
// ledger legs of cash on delivery, what each reader sees, and which notices each status change sends.

const s = deliverySettings(testConfig());
const key = quoteKeyOf('unit-test-secret-0123456789abcdef');

describe('the status table', () => {
  const BY: Record<DeliveryAction, DeliveryActor> = {
    assign: 'SYSTEM',
    giveUp: 'DRIVER',
    pickup: 'DRIVER',
    deliver: 'DRIVER',
    cancel: 'SENDER',
    adminCancel: 'ADMIN',
    expire: 'SYSTEM',
  };
  const legal = new Set([
    'assign:CREATED',
    'giveUp:DRIVER_ASSIGNED',
    'pickup:DRIVER_ASSIGNED',
    'deliver:PICKED_UP',
    'cancel:CREATED',
    'cancel:DRIVER_ASSIGNED',
    'adminCancel:CREATED',
    'adminCancel:DRIVER_ASSIGNED',
    'adminCancel:PICKED_UP',
    'expire:CREATED',
  ]);
  const all = (Object.keys(BY) as DeliveryAction[]).flatMap((action) => DELIVERY_STATUSES.map((status) => [action, status] as const));

  it.each(all.filter(([a, st]) => !legal.has(`${a}:${st}`)))('refuses %s from %s with 409 DELIVERY_TRANSITION', (action, status) => {
    expect(() => deliveryMachine.check(action, status, [BY[action]])).toThrow(expect.objectContaining({ statusCode: 409, code: 'DELIVERY_TRANSITION' }));
  });

  it.each(all.filter(([a, st]) => legal.has(`${a}:${st}`)))(
    'allows %s from %s to its actor only (409 DELIVERY_NOT_ALLOWED for the others)',
    (action, status) => {
      expect(deliveryMachine.check(action, status, [BY[action]])).toBeDefined();
      // The pickup timer gives a parcel up as SYSTEM, like its driver.
      const also: Partial<Record<DeliveryAction, DeliveryActor>> = { giveUp: 'SYSTEM' };
      for (const other of (['SENDER', 'DRIVER', 'ADMIN', 'SYSTEM'] as const).filter((r) => r !== BY[action] && r !== also[action]))
        expect(() => deliveryMachine.check(action, status, [other])).toThrow(expect.objectContaining({ code: 'DELIVERY_NOT_ALLOWED' }));
    },
  );
});

describe('the price', () => {
  it('is the base for the first 2 km, 5,000 VND a km after, × the size, up to 1,000 VND, plus the COD fee', () => {
    expect(feeOf(1_500, 'SMALL', 0, s).feeVnd).toBe(15_000);
    expect(feeOf(2_000, 'SMALL', 0, s).feeVnd).toBe(15_000);
    expect(feeOf(2_001, 'SMALL', 0, s).feeVnd).toBe(16_000);
    expect(feeOf(10_000, 'SMALL', 0, s).feeVnd).toBe(55_000);
    expect(feeOf(10_000, 'MEDIUM', 0, s).feeVnd).toBe(72_000); // 71,500 up
    expect(feeOf(10_000, 'LARGE', 0, s).feeVnd).toBe(99_000);
    expect(feeOf(10_000, 'SMALL', 1, s)).toMatchObject({ feeVnd: 60_000, codFeeVnd: 5_000 });
    for (const m of [2_345, 7_777, 49_999]) expect(feeOf(m, 'MEDIUM', 0, s).feeVnd % 1_000).toBe(0);
  });
});

describe('quotes', () => {
  const terms = {
    senderId: 'u1',
    pickup: { lat: 10.77, lng: 106.7, address: 'A' },
    dropoff: { lat: 10.79, lng: 106.71, address: 'B' },
    size: 'SMALL' as const,
    codVnd: 0,
    distanceM: 3_000,
    feeVnd: 20_000,
    expiresAt: 2_000,
  };
  it('sign their terms: altered, forged or another sender’s are refused; expired ones are 409', () => {
    const id = signQuote(terms, key);
    expect(readQuote(id, key)).toEqual(terms);
    expect(readQuote(id, quoteKeyOf('another-secret-0123456789abcdefghij'))).toBeUndefined();
    expect(readQuote(`${id}.x`, key)).toBeUndefined();
    expect(readQuote('garbage', key)).toBeUndefined();
    expect(honouredQuote(id, 'u1', undefined, 1_000, key)).toEqual(terms);
    expect(() => honouredQuote(id, 'u2', undefined, 1_000, key)).toThrow(expect.objectContaining({ code: 'DELIVERY_QUOTE_INVALID' }));
    expect(() => honouredQuote(id, 'u1', 5, 1_000, key)).toThrow(expect.objectContaining({ code: 'DELIVERY_QUOTE_INVALID' }));
    expect(() => honouredQuote(id, 'u1', 0, 3_000, key)).toThrow(expect.objectContaining({ statusCode: 409, code: 'DELIVERY_QUOTE_EXPIRED' }));
  });
});

describe('hand-over codes (the port bound before the kit)', () => {
  it('are 4 digits, and lock after five wrong ones, even for the right one then', () => {
    const codes = new Set(Array.from({ length: 200 }, () => newHandoverCodeState().code));
    for (const c of codes) expect(c).toMatch(/^\d{4}$/);
    expect(codes.size).toBeGreaterThan(150);
    let state = { code: '0427', failedAttempts: 0, lockedAt: null as number | null };
    expect(checkHandoverCode(state, '0427', 1).outcome).toBe('MATCH');
    for (let i = 1; i <= 4; i++) {
      const check = checkHandoverCode(state, '9999', i);
      expect(check).toMatchObject({ outcome: 'WRONG', attemptsLeft: 5 - i });
      state = check.state;
    }
    const last = checkHandoverCode(state, '042', 5);
    expect(last).toMatchObject({ outcome: 'LOCKED', state: { failedAttempts: 5, lockedAt: 5 } });
    expect(checkHandoverCode(last.state, '0427', 6).outcome).toBe('LOCKED');
    expect(handoverCodeError(last, { wrong: 'DELIVERY_CODE_WRONG', locked: 'DELIVERY_CODE_LOCKED' })).toMatchObject({ code: 'DELIVERY_CODE_LOCKED' });
  });
});

const parcel = (over: Partial<DeliveryRecord> = {}): DeliveryRecord => ({
  id: 'D1',
  senderId: 's1',
  driverId: 'd1',
  status: 'DRIVER_ASSIGNED',
  pickup: { lat: 1, lng: 1, address: 'A', contact: { name: 'Lan', phone: '+84987654321' } },
  dropoff: { lat: 1, lng: 1.01, address: 'B', contact: { name: 'Mai', phone: '+84912345678' } },
  parcel: { size: 'SMALL', description: 'x' },
  note: null,
  distanceM: 1_500,
  feeVnd: 15_000,
  codVnd: 100_000,
  payment: { method: 'CASH', holdPaymentId: null, feePaymentId: null, cancelFeePaymentId: null },
  codSettledAt: null,
  codes: { pickup: { code: '1111', failedAttempts: 0, lockedAt: null }, dropoff: { code: '2222', failedAttempts: 0, lockedAt: null } },
  pickupProof: null,
  deliveryProof: null,
  driver: { name: 'Hùng', phone: null, vehicle: null },
  cancelledBy: null,
  cancelReason: null,
  cancellationFeeVnd: 0,
  rating: { stars: 5, comment: null, at: 1 },
  assignBy: 1_000,
  nextDispatchAt: null,
  dispatchAttempts: 0,
  createdAt: 1,
  assignedAt: 2,
  pickedUpAt: null,
  deliveredAt: null,
  endedAt: null,
  updatedAt: 2,
  ...over,
});

describe('cash on delivery in the ledger', () => {
  it('is one balanced leg: the driver’s earnings (overdraft allowed) to the sender’s wallet', () => {
    expect(codLegs(parcel())).toEqual([
      expect.objectContaining({
        debit: expect.objectContaining({ id: 'earnings_d1' }),
        credit: expect.objectContaining({ id: 'wallet_s1' }),
        amount: 100_000,
        allowOverdraft: true,
      }),
    ]);
    expect(codLegs(parcel({ codVnd: 0 }))).toEqual([]);
    expect(codLegs(parcel({ driverId: null }))).toEqual([]);
  });
});

describe('what each reader sees', () => {
  it('the codes and the rating are the sender’s only', () => {
    expect(deliveryView(parcel(), 'SENDER')).toMatchObject({ codes: { pickup: '1111', dropoff: '2222' }, rating: { stars: 5 }, actions: ['cancel'] });
    expect(deliveryView(parcel({ status: 'PICKED_UP' }), 'SENDER').codes).toEqual({ pickup: null, dropoff: '2222' });
    expect(deliveryView(parcel({ status: 'DELIVERED' }), 'SENDER').codes).toEqual({ pickup: null, dropoff: null });
    expect(deliveryView(parcel(), 'DRIVER')).toMatchObject({ codes: null, rating: null, actions: ['giveUp', 'pickup'] });
    expect(deliveryView(parcel(), 'ADMIN')).toMatchObject({ codes: null, actions: ['adminCancel'] });
  });
});

describe('notices of a status change', () => {
  const names = (before: DeliveryRecord | undefined, after: DeliveryRecord) =>
    deliveryNotices(before, after).map((n) => [n.event, n.recipients.map((r) => `${r.userId}/${r.surface}`)]);
  it('go to the parties each status concerns, and none for a change that moves no status', () => {
    expect(names(undefined, parcel({ status: 'CREATED', driverId: null }))).toEqual([]);
    expect(names(parcel({ status: 'CREATED' }), parcel())).toEqual([
      ['delivery.assigned', ['s1/CON']],
      ['delivery.assigned', ['d1/DRV']],
    ]);
    expect(names(parcel(), parcel({ status: 'PICKED_UP' }))).toEqual([['delivery.picked_up', ['s1/CON']]]);
    expect(names(parcel({ status: 'PICKED_UP' }), parcel({ status: 'DELIVERED' }))).toEqual([['delivery.delivered', ['s1/CON', 'd1/DRV']]]);
    expect(names(parcel({ status: 'CREATED', driverId: null }), parcel({ status: 'CANCELLED', driverId: null }))).toEqual([['delivery.cancelled', ['s1/CON']]]);
    expect(names(parcel(), parcel({ status: 'CANCELLED' }))).toEqual([['delivery.cancelled', ['s1/CON', 'd1/DRV']]]);
    expect(names(parcel({ status: 'CREATED', driverId: null }), parcel({ status: 'NO_DRIVER', driverId: null }))).toEqual([['delivery.no_driver', ['s1/CON']]]);
    expect(names(parcel(), parcel({ feeVnd: 1 }))).toEqual([]);
  });
});
